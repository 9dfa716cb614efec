import { Trans } from '@lingui/react/macro';
import { Button, Group } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import type { AnyActorLogic, AnyStateMachine, EventFrom } from 'xstate';
import { createAdminOperatorActors } from '../../machines/adminOperator.actors.ts';
import { adminOperatorMachine } from '../../machines/adminOperator.machine.ts';
import type { ApiClient } from '../../machines/api.ts';
import type { Feedback } from '../../machines/feedback.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { SubmitForm } from '../ui/SubmitForm.tsx';
import { useAdmin } from './context.tsx';
import { ErrorBox } from './feedback.tsx';
import { SectionCard } from './parts/layout.tsx';
import type { AdminRuntime } from './runtime.ts';

/** What a console form's flow is given: the console (its client, its session) and what to do once it made a record. */
type FormPorts = { admin: AdminRuntime; created: () => void };

// SnapshotFrom of a generic machine stays unresolved; what the form's card reads of a form's snapshot.
type FormSnapshot = { matches: (state: 'creating') => boolean; context: { error: Feedback | null } };

/**
 * The binding of a console form that makes a record (a flow with no input, its calls over the console's own
 * client, `sessionEnded` and `created` actions, a `creating` state and an `error` in its context; `create` makes
 * the record): the form (`Form`) and, for its fields, `useSelector` and `useSend`.
 */
function createFormBinding<TMachine extends AnyStateMachine>(
  machine: TMachine,
  actorsOf: (api: ApiClient) => Record<string, AnyActorLogic>,
  create: EventFrom<TMachine>,
) {
  const binding = createFlowBinding(
    machine,
    (_runtime, ports: FormPorts) =>
      machine.provide({
        actors: actorsOf(ports.admin.api),
        actions: { sessionEnded: ports.admin.sessionEnded, created: ports.created },
      }) as TMachine,
  );
  // A form's flow takes no input, which FlowStart cannot tell of a machine this factory is not given yet.
  const FormProvider = binding.Provider as unknown as (props: {
    ports: FormPorts;
    children: ReactNode;
  }) => ReactNode;
  /**
   * The form, running its own flow, in a card under its heading (`id` names it): its `Fields` in a row, then
   * Create, which the flow takes once the fields make a record (busy while it is made); then the failure, then
   * `Made` (what was just made). `created` is what the page does once a record is made (reload its list).
   */
  function Form({
    id,
    title,
    created,
    Fields,
    Made,
  }: {
    id: string;
    title: ReactNode;
    created: () => void;
    Fields: ComponentType;
    Made?: ComponentType;
  }) {
    const admin = useAdmin();
    return (
      <FormProvider ports={{ admin, created }}>
        <SectionCard id={id} title={title}>
          <CreateForm>
            <Fields />
          </CreateForm>
          {Made && <Made />}
        </SectionCard>
      </FormProvider>
    );
  }
  function CreateForm({ children }: { children: ReactNode }) {
    const send = binding.useSend();
    const ready = binding.useCan(create);
    const creating = binding.useSelector((state) => (state as FormSnapshot).matches('creating'));
    const error = binding.useSelector((state) => (state as FormSnapshot).context.error);
    return (
      <SubmitForm onSubmit={() => send(create)}>
        <Group align="flex-end" wrap="wrap">
          {children}
          <Button type="submit" disabled={!ready} loading={creating}>
            <Trans>Criar</Trans>
          </Button>
        </Group>
        <ErrorBox error={error} />
      </SubmitForm>
    );
  }
  return { Form, useSelector: binding.useSelector, useSend: binding.useSend };
}

/** The new-operator form (machines/adminOperator.machine.ts). */
const newOperator = createFormBinding(adminOperatorMachine, createAdminOperatorActors, {
  type: 'operator.create',
});
export const NewOperatorForm = newOperator.Form;
export const useNewOperatorSelector = newOperator.useSelector;
export const useNewOperatorSend = newOperator.useSend;
