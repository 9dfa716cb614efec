// The few parts of autocannon 8's API the benchmarks use (the package ships no types; @types/autocannon is not
// installed here).
declare module 'autocannon' {
  type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: (Request & { setupRequest?: (request: Request) => Request })[];
  };
  type Result = {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '3xx': number;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
