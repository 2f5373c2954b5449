package dev.guard.dashboard.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map in access order that forgets its least recently used entry once it holds more than its
 * bound: the dashboard's memory of clients and sessions stays bounded whatever clients send. Not
 * thread-safe; its owners synchronize.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class BoundedLru<K, V> extends LinkedHashMap<K, V> {

  private static final long serialVersionUID = 1L;

  private final int bound;

  BoundedLru(int bound) {
    super(16, 0.75f, true);
    this.bound = bound;
  }

  @Override
  protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
    return size() > bound;
  }
}
