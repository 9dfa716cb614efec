import { afterAll } from 'vitest';

// A component test file's DOM (jsdom) is torn down as soon as its last test ends. Mantine leaves short timers behind
// an unmounted modal (its focus return, 10 ms), and one that fired after the teardown failed the whole run with
// "document is not defined" although every test had passed. The file waits for such timers before its DOM goes.
afterAll(async () => {
  if (typeof document === 'undefined') return;
  await new Promise((resolve) => setTimeout(resolve, 50));
});
