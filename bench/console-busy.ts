// A child process of bench/console-scale.ts: it asks for two money reports of a year and a ledger export of a
// year without pause, each read to its end, until told to stop, then answers what it did. It is the bench's own
// client, standing for operators' browsers elsewhere: it runs in a process of its own at the lowest priority
// (console-scale.ts renices it), so that receiving and decompressing those answers (a report is about 200 KB of
// JSON, an export 35 MB of CSV) takes neither the measuring thread's time nor CPU the server would have had: the
// figure is the server's, not the bench's.
import { download } from './support.ts';

export type Tally = { completed: number; failed: number; ms: number[] };
export type BusyInput = { reportUrl: string; exportUrl: string; token: string };

if (process.send) {
  const { reportUrl, exportUrl, token } = JSON.parse(process.env.BENCH_BUSY!) as BusyInput;
  let stopping = false;
  process.once('message', () => (stopping = true));

  const loop = async (url: string): Promise<Tally> => {
    const tally: Tally = { completed: 0, failed: 0, ms: [] };
    while (!stopping) {
      const started = performance.now();
      const status = await download(url, token);
      tally.ms.push(performance.now() - started);
      if (status === 200) tally.completed += 1;
      else tally.failed += 1;
    }
    return tally;
  };
  const [reportA, reportB, exports] = await Promise.all([loop(reportUrl), loop(reportUrl), loop(exportUrl)]);
  process.send({ reportA, reportB, exports }, () => process.exit(0));
}
