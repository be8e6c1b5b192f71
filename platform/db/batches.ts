import type DataLoader from "dataloader";

/**
 * A DataLoader's batch function and scheduling such that its batches run one at a time: the loads asked while a
 * batch's statement runs wait for it, and all of them go in the next statement (as the presses' statements do:
 * features/play/shared/advance-batch.ts). Reads notified a few milliseconds apart (fifty teachers pressing at once,
 * their requests parsed one after another) then make two or three statements instead of one each, which on a
 * database's few cores would slow every one of them down. Nothing is cached: pass `cache: false` with these.
 */
export function oneBatchAtATime<K, V>(
  load: DataLoader.BatchLoadFn<K, V>,
): Required<Pick<DataLoader.Options<K, V>, "batchScheduleFn">> & { batch: DataLoader.BatchLoadFn<K, V> } {
  let running: Promise<unknown> = Promise.resolve();
  return {
    batch: (keys) => {
      const loaded = load(keys);
      running = Promise.resolve(loaded).then(
        () => undefined,
        () => undefined,
      );
      return loaded;
    },
    // the next batch is sent once the running one has answered (and the loads of that turn have joined it)
    batchScheduleFn: (dispatch) => void running.then(() => setImmediate(dispatch)),
  };
}
