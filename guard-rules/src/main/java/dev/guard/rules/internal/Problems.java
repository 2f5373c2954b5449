package dev.guard.rules.internal;

import dev.guard.api.rule.InvalidRulesException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The errors found in one document so far, in the order they were found. */
public final class Problems {

  private final List<InvalidRulesException.Error> errors = new ArrayList<>();
  private final Set<String> refused = new HashSet<>();

  /** Records an error, unless the value at {@code path} was refused already. */
  public void add(String path, String message) {
    if (!refused.contains(path)) {
      errors.add(new InvalidRulesException.Error(path, message));
    }
  }

  /**
   * Records an error about a value that no later check needs to repeat: further errors at the
   * same path are dropped.
   */
  public void refuse(String path, String message) {
    add(path, message);
    refused.add(path);
  }

  /** How many errors were recorded, to tell later whether a part added any. */
  public int count() {
    return errors.size();
  }

  /** Throws every recorded error at once, if there is one. */
  public void throwIfAny() {
    if (!errors.isEmpty()) {
      throw new InvalidRulesException(errors);
    }
  }
}
