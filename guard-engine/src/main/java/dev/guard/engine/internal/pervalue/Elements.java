package dev.guard.engine.internal.pervalue;

import java.lang.reflect.Array;
import java.util.Collection;
import java.util.List;
import java.util.RandomAccess;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Reads the elements of a collection or array argument by position, so that a rule can check
 * every element and then take tokens for every element in the same order. Random-access lists and
 * arrays are read in place; other collections are copied to an array once per call, which also
 * makes both passes see the same elements.
 */
final class Elements {

  private Elements() {}

  /**
   * Prepares an argument for positional reads.
   *
   * @param value the argument
   * @return a random-access list or an array for a collection or array, else null (one value)
   */
  static @Nullable Object of(Object value) {
    if (isScalar(value)) {
      return null;
    }
    if (value instanceof Collection<?> collection) {
      return value instanceof List<?> && value instanceof RandomAccess
          ? value
          : collection.toArray();
    }
    return value.getClass().isArray() ? value : null;
  }

  /**
   * Whether a value is of a final type of the JDK that is never a collection or array, told by
   * class checks that cost one comparison each: keys are most often strings, numbers or ids. The
   * checks behind it (an interface test that scans the value's interfaces, then an array test)
   * would otherwise run on every call.
   */
  private static boolean isScalar(Object value) {
    return value instanceof String || value instanceof Long || value instanceof Integer
        || value instanceof UUID || value instanceof Boolean || value instanceof Character
        || value instanceof Short || value instanceof Byte || value instanceof Double
        || value instanceof Float;
  }

  /**
   * The number of elements.
   *
   * @param elements what {@link #of} returned
   * @return its size
   */
  static int size(Object elements) {
    if (elements instanceof Object[] array) {
      return array.length;
    }
    if (elements instanceof List<?> list) {
      return list.size();
    }
    return Array.getLength(elements);
  }

  /**
   * One element (primitive arrays box it).
   *
   * @param elements what {@link #of} returned
   * @param index the position
   * @return the element, possibly null
   */
  static @Nullable Object get(Object elements, int index) {
    if (elements instanceof Object[] array) {
      return array[index];
    }
    if (elements instanceof List<?> list) {
      return list.get(index);
    }
    return Array.get(elements, index);
  }
}
