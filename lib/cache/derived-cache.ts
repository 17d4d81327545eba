/**
 * An in-process cache of data derived from rarely-changing rows (a JWKS, a custom domain's
 * issuer), kept correct across instances by the invalidation listener (listener.ts).
 * Rules:
 * - serves and stores only while its listener is ready; otherwise every read loads (and the
 *   listener is started);
 * - a value loaded while an invalidation (or a drop) happened is returned to its caller but not
 *   stored: it may predate the change;
 * - every entry expires after `ttlMs` at most (a safety net behind the notifications), or at the
 *   `expiresAt` its loader gives (a JWKS until its first retired key stops being published);
 * - at most `maxEntries` entries, the oldest dropped first;
 * - concurrent misses of one key share one load.
 */
import { processListener, type InvalidationListener, type TCacheSubscriber } from "./listener";

export interface TLoaded<V> {
  value: V;
  /** epoch ms after which the value must not be served (default: now + ttlMs) */
  expiresAt?: number;
}

export interface TDerivedCacheOptions {
  /** the invalidation topic (lib/cache/topics.ts) */
  topic: string;
  ttlMs: number;
  maxEntries: number;
  /** default: the process listener on DATABASE_URL */
  listener?: InvalidationListener;
}

interface TEntry<V> {
  value: V;
  expiresAt: number;
}

export class DerivedCache<V> implements TCacheSubscriber {
  readonly topic: string;
  private readonly entries = new Map<string, TEntry<V>>();
  private readonly loading = new Map<string, { generation: number; promise: Promise<V> }>();
  /** bumped by every invalidation and drop: a load that saw it change does not store */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly listener: InvalidationListener | undefined;

  constructor(options: TDerivedCacheOptions) {
    this.topic = options.topic;
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries;
    this.listener = options.listener ?? processListener();
    this.listener?.subscribe(this);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of `key`, loaded with `load` when not cached. */
  async get(key: string, load: () => Promise<TLoaded<V>>): Promise<V> {
    const listener = this.listener;
    if (!listener?.ready) {
      listener?.start();
      return (await load()).value;
    }
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expiresAt > Date.now()) return hit.value;
      this.entries.delete(key);
    }
    const pending = this.loading.get(key);
    if (pending && pending.generation === this.generation) return pending.promise;
    const generation = this.generation;
    const promise = this.load(key, generation, load);
    this.loading.set(key, { generation, promise });
    return promise;
  }

  private async load(key: string, generation: number, load: () => Promise<TLoaded<V>>): Promise<V> {
    try {
      const loaded = await load();
      if (generation === this.generation && this.listener?.ready) {
        const expiresAt = Math.min(Date.now() + this.ttlMs, loaded.expiresAt ?? Infinity);
        this.entries.delete(key);
        if (this.entries.size >= this.maxEntries) {
          // Maps iterate in insertion order: the oldest entry goes
          const oldest = this.entries.keys().next();
          if (!oldest.done) this.entries.delete(oldest.value);
        }
        this.entries.set(key, { value: loaded.value, expiresAt });
      }
      return loaded.value;
    } finally {
      if (this.loading.get(key)?.generation === generation) this.loading.delete(key);
    }
  }

  /** What is cached for `key` now (tests). */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > Date.now() ? hit.value : undefined;
  }

  invalidate(key: string | undefined): void {
    this.generation++;
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
