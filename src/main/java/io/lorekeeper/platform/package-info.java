/**
 * Cross-cutting plumbing every feature module shares: RFC 9457 problem responses, request limits,
 * long work as db-scheduler jobs keyed by an entity id ({@link io.lorekeeper.platform.EntityJobs}),
 * scheduled in the transaction that changes the entity, and the domain side of aggregates: the
 * refusal of an illegal state change ({@link io.lorekeeper.platform.IllegalTransitionException},
 * a 409 at the web edge), a job's change applied again after a lost optimistic-lock race
 * ({@link io.lorekeeper.platform.Transitions}), and {@code jsonb} columns on entities
 * ({@link io.lorekeeper.platform.JsonColumn}).
 */
@org.springframework.modulith.ApplicationModule(type = org.springframework.modulith.ApplicationModule.Type.OPEN)
@io.lorekeeper.platform.OwnsTables({"scheduled_tasks"})
package io.lorekeeper.platform;
