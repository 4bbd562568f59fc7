/**
 * Rate limits (authentication per client address and per account, image and language work).
 * rate-limiter-flexible is the
 * common Node choice; the memory store suits one process, and the same API takes a Redis or
 * PostgreSQL store when the web tier runs several processes.
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export interface RateLimiter {
  /** Resolves when allowed; returns the seconds to wait when refused. */
  consume(key: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
  /** Gives back the point of one allowed attempt (a successful sign-in does not count against the account). */
  refund(key: string): Promise<void>;
}

export function createRateLimiter(opts: { points: number; durationSeconds: number }): RateLimiter {
  const limiter = new RateLimiterMemory({ points: opts.points, duration: opts.durationSeconds });
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return { allowed: true };
      } catch (e) {
        if (e instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
        throw e;
      }
    },
    async refund(key) {
      await limiter.reward(key, 1);
    },
  };
}
