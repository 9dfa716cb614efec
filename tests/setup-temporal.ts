// Node has no Temporal of its own yet: the client code under test gets the polyfill, as an older browser would.
import { loadTemporal } from '../machines/temporal.ts';

await loadTemporal();
