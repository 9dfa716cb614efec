import { createMoveActors } from '../../machines/move.actors.ts';
import { moveMachine } from '../../machines/move.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** The move flow's binding (machines/move.machine.ts): a booking's new slot, its difference, its checkout. */
export const moveFlow = createFlowBinding(moveMachine, (runtime) =>
  moveMachine.provide({ actors: createMoveActors(runtime.api) }),
);
