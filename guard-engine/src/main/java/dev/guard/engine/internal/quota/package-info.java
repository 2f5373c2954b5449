/**
 * The token-bucket arithmetic that per-value rules and quotas share ({@link
 * dev.guard.engine.internal.quota.TokenBuckets}), and the quotas of one key ({@link
 * dev.guard.engine.internal.quota.QuotaBuckets}), as flow rules keep them.
 */
@NullMarked
package dev.guard.engine.internal.quota;

import org.jspecify.annotations.NullMarked;
