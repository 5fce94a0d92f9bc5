/**
 * Cross-cutting plumbing every feature module shares: RFC 9457 problem responses, request limits,
 * long work as db-scheduler jobs keyed by an entity id ({@link io.lorekeeper.platform.EntityJobs}),
 * scheduled in the transaction that changes the entity, and the domain side of aggregates: the
 * refusal of an illegal state change ({@link io.lorekeeper.platform.IllegalTransitionException},
 * a 409 at the web edge), a job's change applied again after a lost optimistic-lock race
 * ({@link io.lorekeeper.platform.Transitions}), and {@code jsonb} columns on entities
 * ({@link io.lorekeeper.platform.JsonColumn}).
 *
 * <p>Owns db-scheduler's {@code scheduled_tasks}, touched only through the scheduler's client
 * ({@link io.lorekeeper.platform.EntityJobs}), and Spring Modulith's {@code event_publication}, the
 * registry of events between modules, touched only by Modulith itself. A closed module with no dependencies: every public
 * type of this one flat package is its API, so it needs no opening.
 */
@io.lorekeeper.platform.OwnsTables({"scheduled_tasks", "event_publication"})
@org.springframework.modulith.ApplicationModule(allowedDependencies = {})
package io.lorekeeper.platform;
