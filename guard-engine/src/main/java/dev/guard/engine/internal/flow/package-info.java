/** Flow control internals: the flow slot, node selection and traffic-shaping controllers. */
@NullMarked
package dev.guard.engine.internal.flow;

import org.jspecify.annotations.NullMarked;
