package dev.guard.redis;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The one rule for an instance's id, for every class that takes or reads one: 1 to 128 letters,
 * digits or {@code . _ : @ -}. Such an id fits a Redis key and a sorted-set member as it is, and a
 * fleet reader can tell a stored id from garbage.
 */
final class InstanceIds {

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

  private InstanceIds() {}

  /** Whether {@code id} is a valid instance id. */
  static boolean valid(String id) {
    return ID.matcher(id).matches();
  }

  /**
   * Checks an instance id given to a builder.
   *
   * @return the id
   * @throws IllegalArgumentException naming {@code instanceId} and the value, if it is not valid
   */
  static String check(String id) {
    Objects.requireNonNull(id, "instanceId");
    if (!valid(id)) {
      throw new IllegalArgumentException("instanceId must be 1 to 128 letters, digits or"
          + " . _ : @ -, was '" + id + "'");
    }
    return id;
  }
}
