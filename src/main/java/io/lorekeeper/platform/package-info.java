/**
 * Cross-cutting plumbing every feature module shares: RFC 9457 problem responses, request limits,
 * and long work as db-scheduler jobs keyed by an entity id ({@link io.lorekeeper.platform.EntityJobs}).
 */
@org.springframework.modulith.ApplicationModule(type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package io.lorekeeper.platform;
