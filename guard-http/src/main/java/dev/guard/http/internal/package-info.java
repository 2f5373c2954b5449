/**
 * Implementation of the HTTP adapters shared by the inbound filters and the outbound decorator;
 * not exported.
 */
@NullMarked
package dev.guard.http.internal;

import org.jspecify.annotations.NullMarked;
