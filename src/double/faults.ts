import type { RoutePattern } from "./types.js";

export interface Failure {
  kind: "fail";
  pattern: RoutePattern;
  status: number;
  remaining: number;
  retryAfterMs: number;
  global: boolean;
}

export interface Delay {
  kind: "delay";
  pattern: RoutePattern;
  ms: number;
  remaining: number;
}

/** Matches "POST /x/:id", "/x/:id" (any method) or a concrete path against a request. */
export function matches(pattern: RoutePattern, method: string, path: string, template: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(`${method} ${path}`);
  const space = pattern.indexOf(" ");
  const hasMethod = space > 0 && /^[A-Z]+$/.test(pattern.slice(0, space));
  const want = hasMethod ? pattern.slice(space + 1) : pattern;
  if (hasMethod && pattern.slice(0, space) !== method) return false;
  return want === template || want === path;
}

/** Injected faults, consumed request by request. */
export class Faults {
  private failures: Failure[] = [];
  private delays: Delay[] = [];

  fail(f: Omit<Failure, "kind">): void {
    this.failures.push({ kind: "fail", ...f });
  }

  delay(d: Omit<Delay, "kind">): void {
    this.delays.push({ kind: "delay", ...d });
  }

  clear(): void {
    this.failures = [];
    this.delays = [];
  }

  takeDelay(method: string, path: string, template: string): number {
    const d = this.delays.find((x) => x.remaining > 0 && matches(x.pattern, method, path, template));
    if (!d) return 0;
    d.remaining -= 1;
    return d.ms;
  }

  takeFailure(method: string, path: string, template: string): Failure | null {
    const f = this.failures.find((x) => x.remaining > 0 && matches(x.pattern, method, path, template));
    if (!f) return null;
    f.remaining -= 1;
    return f;
  }
}
