package dev.gpurent.text;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A message's arguments: an immutable map in the order they were given, kept in two arrays. Live
 * rankings hold millions of messages (10,000 live scenarios held 5.9 million), and a
 * LinkedHashMap in an unmodifiable wrapper cost about 190 bytes of each for its two or three
 * arguments; this costs the arrays.
 */
final class Args extends AbstractMap<String, Object> {

  static final Args EMPTY = new Args(new String[0], new Object[0]);

  private final String[] keys;
  private final Object[] values;

  private Args(String[] keys, Object[] values) {
    this.keys = keys;
    this.values = values;
  }

  static Args of(Map<String, ?> args) {
    if (args instanceof Args a) return a;
    if (args.isEmpty()) return EMPTY;
    String[] k = new String[args.size()];
    Object[] v = new Object[k.length];
    int i = 0;
    for (Map.Entry<String, ?> e : args.entrySet()) {
      k[i] = e.getKey();
      v[i++] = e.getValue();
    }
    return new Args(k, v);
  }

  @Override
  public int size() {
    return keys.length;
  }

  @Override
  public Object get(Object key) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) return values[i];
    }
    return null;
  }

  @Override
  public boolean containsKey(Object key) {
    for (String k : keys) {
      if (k.equals(key)) return true;
    }
    return false;
  }

  // equals and hashCode without an entry per argument: live rankings compare their messages at every change

  @Override
  public boolean equals(Object o) {
    if (o == this) return true;
    if (o instanceof Args a && java.util.Arrays.equals(keys, a.keys)) return java.util.Arrays.equals(values, a.values);
    return super.equals(o);
  }

  @Override
  public int hashCode() {
    int h = 0;
    for (int i = 0; i < keys.length; i++) h += keys[i].hashCode() ^ java.util.Objects.hashCode(values[i]);
    return h;
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return keys.length;
      }

      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int i;

          @Override
          public boolean hasNext() {
            return i < keys.length;
          }

          @Override
          public Map.Entry<String, Object> next() {
            if (i >= keys.length) throw new NoSuchElementException();
            Map.Entry<String, Object> e = new AbstractMap.SimpleImmutableEntry<>(keys[i], values[i]);
            i++;
            return e;
          }
        };
      }
    };
  }
}
