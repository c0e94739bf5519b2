/** Which failures of an attempt are worth another attempt, how many attempts in all, and the error once they are spent. */
export interface RetryPolicy {
  readonly attempts: number;
  retries(error: unknown): boolean;
  exhausted(): Error;
}

/**
 * Runs `attempt` (numbered from 0) until it succeeds, fails with an error the policy does not retry,
 * or has been made `policy.attempts` times. Attempts follow at once: a backoff library's timers would
 * only add latency to a retry that reads the log anew.
 */
export async function retrying<T>(policy: RetryPolicy, attempt: (n: number) => Promise<T>): Promise<T> {
  for (let n = 0; n < policy.attempts; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!policy.retries(error)) throw error;
    }
  }
  throw policy.exhausted();
}
