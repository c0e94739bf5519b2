/**
 * Runs `start` with some environment variables set, then puts them back: the service reads its
 * settings once, at start-up, so an app started inside keeps them.
 */
export async function withEnv<T>(env: Record<string, string>, start: () => T | Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await start();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
