import { fromPromise } from 'xstate';

/**
 * A console form's call for a machine test: it records what it was asked and answers with `answer`; and the
 * console's actions (`created`, `sessionEnded`), counted.
 */
export function formCall<TInput, TOutput>(answer: (input: TInput) => Promise<TOutput>) {
  const asked: TInput[] = [];
  const events = { created: 0, sessionEnded: 0 };
  return {
    asked,
    events,
    logic: fromPromise<TOutput, TInput>(({ input }) => {
      asked.push(input);
      return answer(input);
    }),
    actions: {
      created: () => void events.created++,
      sessionEnded: () => void events.sessionEnded++,
    },
  };
}
