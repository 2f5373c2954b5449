/**
 * What the test kit's two modules share and nobody else uses: argument checks and the formatting
 * of their messages. Exported only to the test kit's upper module; not an API.
 */
@NullMarked
package dev.guard.testkit.internal;

import org.jspecify.annotations.NullMarked;
