/**
 * Ports: what the pipeline needs from storage, queues and the network, as interfaces. The AWS adapters implement
 * them; pure tests use small in-memory versions. Keeping them here keeps the core free of the AWS SDK.
 */
package io.spiderling.core.port;
