package dev.guard.rules.internal;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleError;
import java.util.ArrayList;
import java.util.List;

/** The errors found in one document so far, in the order they were found. */
public final class Problems {

  private final List<RuleError> errors = new ArrayList<>();

  /** Records an error. */
  public void add(String path, String message) {
    errors.add(new RuleError(path, message));
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
