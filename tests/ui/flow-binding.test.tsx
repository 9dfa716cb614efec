import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { createFlowBinding, createLocalFlowBinding } from '../../src/app/binding.tsx';
import { RuntimeContext } from '../../src/app/context.tsx';
import type { Runtime } from '../../src/app/runtime.ts';
import { staticRuntime } from '../../src/app/static-runtime.ts';

// A flow's binding (src/app/binding.tsx): its provider starts the machine from what the page gives it, with the
// machine provided once from the runtime and the flow's ports; its entry components and hooks read it.
const counter = setup({
  types: {
    context: {} as { count: number },
    input: {} as { start: number },
    events: {} as { type: 'add' },
  },
  actions: { added: () => {} },
}).createMachine({
  context: ({ input }) => ({ count: input.start }),
  initial: 'counting',
  states: {
    counting: { on: { add: { actions: [assign({ count: ({ context }) => context.count + 1 }), 'added'] } } },
  },
});

const idle = setup({ types: { events: {} as { type: 'go' } } }).createMachine({
  initial: 'waiting',
  states: { waiting: { on: { go: 'gone' } }, gone: {} },
});

const runtime: Runtime = staticRuntime({}, null);

function rendered(element: React.ReactNode): string {
  return renderToString(<RuntimeContext value={runtime}>{element}</RuntimeContext>);
}

describe('a flow binding', () => {
  it('starts the flow from the input and ports the page gives, providing the machine from the runtime once', () => {
    const provided: { runtime: Runtime; ports: { added: () => void } }[] = [];
    const flow = createFlowBinding(counter, (given, ports: { added: () => void }) => {
      provided.push({ runtime: given, ports });
      return counter.provide({ actions: { added: ports.added } });
    });
    function Count() {
      const [state, send] = flow.useFlow();
      return (
        <output>
          {state.context.count} {typeof send} {String(flow.useCan({ type: 'add' }))}
        </output>
      );
    }
    const ports = { added: () => {} };
    const html = rendered(
      <flow.Provider input={{ start: 41 }} ports={ports}>
        <Count />
      </flow.Provider>,
    );
    expect(html).toBe('<output>41<!-- --> <!-- -->function<!-- --> <!-- -->true</output>');
    expect(provided).toEqual([{ runtime, ports }]);
  });

  it('runs an entry component inside its own provider, started from its props', () => {
    const flow = createFlowBinding(counter, (_runtime, ports: { added: () => void }) =>
      counter.provide({ actions: { added: ports.added } }),
    );
    const Entry = flow.withProvider(
      function Count({ label }: { label: string; start: number }) {
        return (
          <p>
            {label} {flow.useSelector((state) => state.context.count)}
          </p>
        );
      },
      ({ start }) => ({ input: { start }, ports: { added: () => {} } }),
    );
    expect(rendered(<Entry label="count" start={7} />)).toBe('<p>count<!-- --> <!-- -->7</p>');
  });

  it('needs nothing from the page for a flow without input or ports', () => {
    const flow = createFlowBinding(idle, () => idle);
    const Entry = flow.withProvider(function Waiting() {
      const [state] = flow.useFlow();
      return <p>{String(state.matches('waiting'))}</p>;
    });
    expect(rendered(<Entry />)).toBe('<p>true</p>');
    expect(
      rendered(
        <flow.Provider>
          <Entry />
        </flow.Provider>,
      ),
    ).toBe('<p>true</p>');
  });
});

describe('a local flow binding', () => {
  it('runs one actor per component that uses it, each from its own input and ports', () => {
    const provided: { added: () => void }[] = [];
    const flow = createLocalFlowBinding(counter, (_runtime, ports: { added: () => void }) => {
      provided.push(ports);
      return counter.provide({ actions: { added: ports.added } });
    });
    const ports = [{ added: () => {} }, { added: () => {} }];
    function Count({ start, index }: { start: number; index: 0 | 1 }) {
      const [state, send] = flow.useFlow(ports[index]!, { start });
      return (
        <i>
          {state.context.count} {typeof send}
        </i>
      );
    }
    expect(
      rendered(
        <>
          <Count start={1} index={0} />
          <Count start={2} index={1} />
        </>,
      ),
    ).toBe('<i>1<!-- --> <!-- -->function</i><i>2<!-- --> <!-- -->function</i>');
    expect(provided).toEqual(ports);
  });
});
