/**
 * Collects single-id lookups made in the same tick into one request per `maxBatch` ids: every
 * product card asks "is this one saved?", and a grid of 20 cards sends one check call, not 20.
 * Pure apart from the scheduler (a microtask by default), so it is tested without a browser.
 */
export interface BatchLoader<T> {
  load(id: string): Promise<T>;
}

export function createBatchLoader<T>(
  fetchBatch: (ids: string[]) => Promise<Map<string, T>>,
  fallback: T,
  opts: { maxBatch?: number; schedule?: (run: () => void) => void } = {}
): BatchLoader<T> {
  const maxBatch = opts.maxBatch ?? 100;
  const schedule = opts.schedule ?? ((run) => void Promise.resolve().then(run));
  let queue = new Map<string, { resolve: (v: T) => void; reject: (e: unknown) => void }[]>();
  let scheduled = false;

  function flush() {
    scheduled = false;
    const current = queue;
    queue = new Map();
    const ids = [...current.keys()];
    for (let i = 0; i < ids.length; i += maxBatch) {
      const chunk = ids.slice(i, i + maxBatch);
      fetchBatch(chunk).then(
        (found) => chunk.forEach((id) => current.get(id)!.forEach((w) => w.resolve(found.has(id) ? found.get(id)! : fallback))),
        (error) => chunk.forEach((id) => current.get(id)!.forEach((w) => w.reject(error)))
      );
    }
  }

  return {
    load(id) {
      return new Promise<T>((resolve, reject) => {
        const waiting = queue.get(id);
        if (waiting) waiting.push({ resolve, reject });
        else queue.set(id, [{ resolve, reject }]);
        if (!scheduled) {
          scheduled = true;
          schedule(flush);
        }
      });
    },
  };
}
