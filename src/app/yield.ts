/**
 * Ends the current task and goes on in a new one, so that the browser can paint and answer input between two
 * pieces of start-up work: a task's time past 50 ms is blocking time, and two shorter tasks have less or none
 * (issue 33). `scheduler.yield` where the browser has it (the continuation goes first among the waiting tasks),
 * else a timer.
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
