/**
 * The extract stage: a stored body read back and turned into its extraction record and links. Apart from fetch so
 * that it can run on an object-created event, and be re-run over stored bodies, without the fetch stage's state.
 */
package io.spiderling.core.pipeline.extract;
