package dev.guard.api.rule;

/** Whether an {@link OriginRule} lists the origins it admits or the ones it refuses. */
public enum OriginPolicy {
  /** Only the listed origins are admitted (a white list). */
  ALLOW,
  /** The listed origins are refused (a black list). */
  DENY
}
