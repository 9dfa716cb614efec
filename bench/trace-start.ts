// `npm run bench:trace -- [path ...]`: what the main thread does while a page starts, from Chromium's own
// performance trace, on a phone's screen. Lighthouse's score on a shared machine moves by several points between
// runs; this says where the blocking time comes from: each long task after the first contentful paint with the
// app's functions that ran in it (CPU samples mapped through the build's source maps), and every layout, marked
// forced when script asked for it (a synchronous layout: DevTools' "forced reflow"). As Lighthouse's simulated
// mobile throttling does with the trace it observes, each task's time is taken 4x and a task counts as long over
// 50 ms; the time taken is the main thread's own CPU time in the task, not the wall clock, so other processes of a
// busy machine weigh far less. Production build over the demo data (bench/demo-server.ts). Default path: the
// booking modal opened by URL. TRACE_RUNS (default 3) runs per path; TRACE_OUT=dir keeps the traces (open them in
// DevTools' Performance panel); TRACE_FILE=trace.json analyses a kept one again; TRACE_WALL=1 takes wall-clock time.
import { readFileSync, writeFileSync } from 'node:fs';
import { SourceMap, type SourceMapping } from 'node:module';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startDemoServer } from './demo-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3410);
const runs = Number(process.env.TRACE_RUNS ?? 3);
const outDir = process.env.TRACE_OUT;
const settleMs = Number(process.env.TRACE_SETTLE_MS ?? 20_000);
const paths = process.argv.slice(2);
if (paths.length === 0) paths.push('/pt?booking_tab=bookSessions&booking_branch_id=1');

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (µs). */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: Record<string, unknown> & { data?: Record<string, unknown>; beginData?: Record<string, unknown> };
};
type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; parent?: number; callFrame: CallFrame };

const JS_EVENTS = new Set(['FunctionCall', 'EvaluateScript', 'V8.Execute', 'v8.callFunction', 'v8.run']);
const LONG_TASK_MS = 50;
/** Lighthouse's mobile CPU slowdown. */
const SLOWDOWN = 4;
/** A task's cost: the main thread's CPU time in it (`tdur`, µs), else its wall time, times the slowdown, in ms. */
/** TRACE_WALL=1: a task's wall-clock time instead, as Lighthouse takes it (what a busy machine's other processes add). */
const byWall = process.env.TRACE_WALL === '1';
const cost = (task: TraceEvent) => (((byWall ? task.dur : (task.tdur ?? task.dur)) ?? 0) * SLOWDOWN) / 1000;

const sourceMaps = new Map<string, SourceMap | null>();
/** A frame of the built code as its source names it: 'src/booking/BookSessions.tsx:Slots'. */
function original(frame: CallFrame, dist: string): string {
  const match = /\/assets\/([^/?#]+\.js)/.exec(frame.url);
  if (!match?.[1]) return frame.functionName || frame.url || '(native)';
  const file = path.join(dist, 'assets', `${match[1]}.map`);
  let map = sourceMaps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(file, 'utf8')) as never);
    } catch {
      map = null;
    }
    sourceMaps.set(file, map);
  }
  const entry: Partial<SourceMapping & { name: string }> =
    map?.findEntry(frame.lineNumber, frame.columnNumber) ?? {};
  if (!entry.originalSource) return `${match[1]}:${frame.functionName}`;
  const source = entry.originalSource.replace(
    /^.*?(node_modules\/|\/src\/|\/machines\/)/,
    (_, folder: string) => (folder.startsWith('node_modules') ? '' : folder.slice(1)),
  );
  const where = source.startsWith('src/') || source.startsWith('machines/') ? source : source.split('/')[0];
  return `${where}:${frame.functionName || entry.name || '(anonymous)'}`;
}

function within(inner: TraceEvent, outer: TraceEvent): boolean {
  return inner.ts >= outer.ts && inner.ts + (inner.dur ?? 0) <= outer.ts + (outer.dur ?? 0);
}

function analyse(events: TraceEvent[], origin: string, dist: string) {
  // The renderer's main thread is the one that parsed the page's HTML; the page's clock starts at the last
  // navigation it began before that (the navigation's own address is not always in the trace).
  const parse = events.find(
    (event) =>
      event.name === 'ParseHTML' &&
      String((event.args?.beginData as { url?: string } | undefined)?.url ?? '').startsWith(origin),
  );
  if (!parse) throw new Error('the page was not parsed during the trace');
  const navigation =
    events
      .filter(
        (event) =>
          event.name === 'navigationStart' &&
          event.pid === parse.pid &&
          event.tid === parse.tid &&
          event.ts <= parse.ts,
      )
      .at(-1) ?? parse;
  const { pid, tid } = navigation;
  const main = events.filter((event) => event.pid === pid && event.tid === tid);
  const fcp =
    main.find((event) => event.name === 'firstContentfulPaint' && event.ts >= navigation.ts)?.ts ??
    navigation.ts;
  const complete = main.filter((event) => event.ph === 'X');
  const tasks = complete
    .filter((event) => event.name === 'RunTask')
    .filter(
      (task, index, all) => !all.some((other, at) => at !== index && other !== task && within(task, other)),
    );
  const js = complete.filter((event) => JS_EVENTS.has(event.name));
  const layouts = complete
    .filter((event) => event.name === 'Layout')
    .map((layout) => {
      const stack = (layout.args?.beginData?.stackTrace as CallFrame[] | undefined) ?? [];
      const forced = stack.length > 0 || js.some((call) => within(layout, call));
      return {
        at: (layout.ts - navigation.ts) / 1000,
        ms: (layout.dur ?? 0) / 1000,
        forced,
        // A trace's stack frames count lines and columns from 1, a CPU profile's from 0.
        by: stack
          .slice(0, 3)
          .map((frame) =>
            original(
              { ...frame, lineNumber: frame.lineNumber - 1, columnNumber: frame.columnNumber - 1 },
              dist,
            ),
          ),
      };
    });

  // CPU samples of the main thread, each with its stack as source names.
  const samples: { ts: number; stack: string[] }[] = [];
  const profileIds = new Set(
    events.filter((event) => event.name === 'Profile' && event.pid === pid).map((event) => event.id),
  );
  const nodes = new Map<number, ProfileNode>();
  let time = Number(
    (events.find((event) => event.name === 'Profile' && event.pid === pid)?.args?.data
      ?.startTime as number) ?? 0,
  );
  for (const chunk of events.filter(
    (event) => event.name === 'ProfileChunk' && event.pid === pid && profileIds.has(event.id),
  )) {
    const profile = chunk.args?.data?.cpuProfile as { nodes?: ProfileNode[]; samples?: number[] } | undefined;
    for (const node of profile?.nodes ?? []) nodes.set(node.id, node);
    const deltas = (chunk.args?.data?.timeDeltas as number[] | undefined) ?? [];
    for (const [index, sample] of (profile?.samples ?? []).entries()) {
      time += deltas[index] ?? 0;
      const stack: string[] = [];
      for (let node = nodes.get(sample); node; node = node.parent ? nodes.get(node.parent) : undefined)
        stack.push(original(node.callFrame, dist));
      samples.push({ ts: time, stack });
    }
  }
  // Each sample stands for the time until the next one, taken down to the CPU time of the task it fell in (on a
  // busy machine the thread also waits for a core, and the wall clock counts that wait).
  const taskOf = (ts: number) => tasks.find((task) => ts >= task.ts && ts <= task.ts + (task.dur ?? 0));
  const weighted = samples.map((sample, index) => {
    const task = taskOf(sample.ts);
    const cpuShare = task?.tdur && task.dur ? task.tdur / task.dur : 1;
    return {
      ...sample,
      task,
      ms: (((samples[index + 1]?.ts ?? sample.ts) - sample.ts) / 1000) * cpuShare,
    };
  });
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `${Math.round(ms)} ms ${name}`);
  /** Where the samples' time went: at the leaf, by function or by package or file, and in the app's functions. */
  const breakdown = (inside: typeof weighted) => {
    const self = new Map<string, number>();
    const byPackage = new Map<string, number>();
    const app = new Map<string, number>();
    for (const sample of inside) {
      const leaf = sample.stack[0] ?? '(idle)';
      self.set(leaf, (self.get(leaf) ?? 0) + sample.ms);
      const where = leaf.split(':')[0] ?? leaf;
      byPackage.set(where, (byPackage.get(where) ?? 0) + sample.ms);
      for (const frame of new Set(sample.stack.filter((name) => /^(src|machines)\//.test(name))))
        app.set(frame, (app.get(frame) ?? 0) + sample.ms);
    }
    return { self, byPackage, app };
  };

  const longTasks = tasks.filter((task) => cost(task) > LONG_TASK_MS);
  /** The trace's own events inside a task, by name, each counted once where events of that name nest. */
  const eventsIn = (task: TraceEvent) => {
    const inside = complete.filter(
      (event) => event !== task && event.name !== 'RunTask' && within(event, task),
    );
    const byName = new Map<string, number>();
    for (const event of inside) {
      if (inside.some((other) => other !== event && other.name === event.name && within(event, other)))
        continue;
      byName.set(event.name, (byName.get(event.name) ?? 0) + (event.tdur ?? event.dur ?? 0) / 1000);
    }
    return top(byName, 6);
  };
  const long = longTasks.map((task) => {
    const { self, app } = breakdown(weighted.filter((sample) => sample.task === task));
    return {
      events: eventsIn(task),
      at: (task.ts - navigation.ts) / 1000,
      ms: cost(task),
      wall: (task.dur ?? 0) / 1000,
      afterFcp: task.ts >= fcp,
      self: top(self, 6),
      app: top(app, 10),
    };
  });
  const blocking = long
    .filter((task) => task.afterFcp)
    .reduce((sum, task) => sum + task.ms - LONG_TASK_MS, 0);
  // Over all long tasks after the first paint: where the time went, by package or app file, and by app function.
  const afterFcp = new Set(longTasks.filter((task) => task.ts >= fcp));
  const { byPackage, app: byApp } = breakdown(
    weighted.filter((sample) => sample.task && afterFcp.has(sample.task)),
  );
  // TRACE_FOCUS=<app function>: what the samples under it spent their time in, one level down and at the leaf.
  const focus = process.env.TRACE_FOCUS;
  const focusCallees = new Map<string, number>();
  const focusLeaves = new Map<string, number>();
  if (focus)
    for (const sample of weighted.filter((sample) => sample.ts >= fcp)) {
      const at = sample.stack.findIndex((name) => name.includes(focus));
      if (at < 0) continue;
      const callee = at > 0 ? sample.stack[at - 1]! : '(self)';
      focusCallees.set(callee, (focusCallees.get(callee) ?? 0) + sample.ms);
      focusLeaves.set(sample.stack[0]!, (focusLeaves.get(sample.stack[0]!) ?? 0) + sample.ms);
    }
  if (focus) {
    console.log(`  under ${focus}, callees: ${top(focusCallees, 15).join('; ')}`);
    console.log(`  under ${focus}, leaves: ${top(focusLeaves, 15).join('; ')}`);
  }
  const cpu = tasks
    .filter((task) => task.ts >= fcp)
    .reduce((sum, task) => sum + (task.tdur ?? task.dur ?? 0) / 1000, 0);
  return {
    cpu,
    fcp: (fcp - navigation.ts) / 1000,
    long,
    blocking,
    layouts,
    byPackage: top(byPackage, 14),
    byApp: top(byApp, 24),
  };
}

if (process.env.TRACE_FILE) {
  // Analyse a kept trace again (the build's source maps must still be those it ran with).
  const { traceEvents } = JSON.parse(readFileSync(process.env.TRACE_FILE, 'utf8')) as {
    traceEvents: TraceEvent[];
  };
  const result = analyse(
    traceEvents,
    process.env.TRACE_ORIGIN ?? `http://127.0.0.1:${port}`,
    process.env.TRACE_DIST ?? path.join(root, 'dist'),
  );
  for (const task of result.long)
    console.log(
      `long task at ${Math.round(task.at)} ms: ${Math.round(task.ms)} ms${task.afterFcp ? '' : ' (before FCP)'}\n    events: ${task.events.join('; ')}\n    self: ${task.self.join('; ')}\n    app: ${task.app.join('; ')}`,
    );
  console.log(`blocking ${Math.round(result.blocking)} ms; ${result.byPackage.join('; ')}`);
  console.log(result.byApp.join('; '));
  process.exit(0);
}
// TRACE_BASE_DIST=<a built dist>: each run also traces that build (e.g. main's), interleaved with this one, so
// that a busy moment of the machine weighs on both alike.
const variants = [{ name: 'this build', dist: path.join(root, 'dist') }];
if (process.env.TRACE_BASE_DIST)
  variants.push({ name: 'base', dist: path.resolve(process.env.TRACE_BASE_DIST) });
const servers = await Promise.all(
  variants.map((variant, index) => startDemoServer(port + index, index === 0 ? undefined : variant.dist)),
);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const pagePath of paths) {
    const totals = variants.map(() => [] as { blocking: number; cpu: number; forced: number }[]);
    for (let run = 1; run <= runs; run += 1)
      for (const [index, variant] of variants.entries()) {
        const server = servers[index]!;
        // Lighthouse's mobile device: a Moto G Power's screen, a fresh profile each run.
        const context = await browser.newContext({
          viewport: { width: 412, height: 823 },
          deviceScaleFactor: 1.75,
          isMobile: true,
          hasTouch: true,
        });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        page.on('pageerror', (error) => errors.push(error.message));
        await browser.startTracing(page, {
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'disabled-by-default-devtools.timeline.stack',
            'disabled-by-default-v8.cpu_profiler',
            'v8.execute',
            'blink.user_timing',
            'loading',
            'toplevel',
          ],
        });
        await page.goto(`${server.origin}${pagePath}`);
        // A fixed wait, not a polling one: Playwright's polling runs script in the page and would be traced too.
        await page.waitForTimeout(settleMs);
        const trace = await browser.stopTracing();
        const ready = await page.evaluate(() => ({
          app: document.documentElement.hasAttribute('data-app-ready'),
          slots: document.querySelectorAll('.slot').length,
        }));
        await context.close();
        if (outDir) writeFileSync(path.join(outDir, `trace-${index}-${run}.json`), trace);
        const { traceEvents } = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] };
        const result = analyse(traceEvents, server.origin, variant.dist);
        const forced = result.layouts.filter((layout) => layout.forced);
        totals[index]!.push({ blocking: result.blocking, cpu: result.cpu, forced: forced.length });
        console.log(
          `\n${pagePath}, ${variant.name}, run ${run}: FCP ${Math.round(result.fcp)} ms (unthrottled); app ready ${ready.app}, ${ready.slots} slots shown`,
        );
        console.log(
          `  blocking time after FCP (sum of long tasks' time over 50 ms, ${byWall ? 'wall-clock' : 'CPU'} time x ${SLOWDOWN}): ${Math.round(result.blocking)} ms; ` +
            `main thread's CPU after FCP ${Math.round(result.cpu)} ms; layouts ${result.layouts.length}, forced ${forced.length} (${Math.round(forced.reduce((sum, layout) => sum + layout.ms, 0))} ms)`,
        );
        for (const layout of forced)
          console.log(
            `  forced layout at ${Math.round(layout.at)} ms, ${layout.ms.toFixed(1)} ms: ${layout.by.join(' < ')}`,
          );
        for (const task of result.long) {
          console.log(
            `  long task at ${Math.round(task.at)} ms: ${Math.round(task.ms)} ms (wall ${Math.round(task.wall)} ms unscaled)${task.afterFcp ? '' : ' (before FCP)'}`,
          );
          console.log(`    events (CPU ms): ${task.events.join('; ')}`);
          console.log(`    self: ${task.self.join('; ')}`);
          console.log(`    app (inclusive): ${task.app.join('; ')}`);
        }
        console.log(
          `  self time in long tasks after FCP, by package or file: ${result.byPackage.join('; ')}`,
        );
        console.log(`  app functions (inclusive) in long tasks after FCP: ${result.byApp.join('; ')}`);
        if (errors.length > 0) console.log(`  console errors: ${errors.join(' | ')}`);
      }
    const middle = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    for (const [index, variant] of variants.entries()) {
      const of = (key: 'blocking' | 'cpu' | 'forced') =>
        Math.round(middle(totals[index]!.map((total) => total[key])));
      console.log(
        `\n${pagePath}, ${variant.name}: median of ${runs}: blocking time ${of('blocking')} ms, main thread's CPU after FCP ${of('cpu')} ms, forced layouts ${of('forced')} (runs: ${totals[index]!.map((total) => Math.round(total.blocking)).join(', ')})`,
      );
    }
  }
} finally {
  await browser.close();
  servers.forEach((server) => server.stop());
}
