// A worker thread of bench/console-scale.ts: it asks for two money reports of a year and a ledger export of a
// year without pause, each read to its end, until told to stop, then answers what it did. It runs on a thread of
// its own so that reading those answers (a report is about 200 KB of JSON, an export 30 MB of CSV) does not hold
// up the thread that measures the slot listing's latency: the figure is the server's, not the bench's.
import { parentPort, workerData } from 'node:worker_threads';
import { download } from './support.ts';

type Input = { reportUrl: string; exportUrl: string; token: string };
export type Tally = { completed: number; failed: number; ms: number[] };

const { reportUrl, exportUrl, token } = workerData as Input;
let stopping = false;
parentPort!.once('message', () => (stopping = true));

async function loop(url: string): Promise<Tally> {
  const tally: Tally = { completed: 0, failed: 0, ms: [] };
  while (!stopping) {
    const started = performance.now();
    const status = await download(url, token);
    tally.ms.push(performance.now() - started);
    if (status === 200) tally.completed += 1;
    else tally.failed += 1;
  }
  return tally;
}

const [reportA, reportB, exports] = await Promise.all([loop(reportUrl), loop(reportUrl), loop(exportUrl)]);
parentPort!.postMessage({ reportA, reportB, exports });
