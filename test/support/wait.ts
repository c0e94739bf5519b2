/** Polls `check` every 10 ms until it answers something, or fails after `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== null && found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
