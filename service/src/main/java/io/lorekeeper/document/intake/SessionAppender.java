package io.lorekeeper.document.intake;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentRequests.AppendSessions;
import io.lorekeeper.document.DocumentResponses.AppendedSession;
import io.lorekeeper.document.DocumentResponses.SessionsAppended;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.ingestion.IngestionJob.IngestionScheduler;
import io.lorekeeper.document.intake.CanonicalText.RenderedSession;
import io.lorekeeper.document.intake.CanonicalText.RenderedTurn;
import io.lorekeeper.document.lifecycle.Document;
import io.lorekeeper.document.lifecycle.DocumentChanges;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.security.TenantQuotas;

/**
 * Appends sessions to a conversation document (an agent's memory growing over time). The new
 * sessions are rendered after the stored text, so every stored offset, chunk, embedding and memo
 * stays valid, and ingestion runs again over the new part only.
 *
 * <p>The document row is locked while the text grows, so two appends to one conversation cannot
 * both render after the same end; the ingestion job is scheduled in that same transaction.
 */
@Service
public class SessionAppender {

    private final DocumentChanges changes;
    private final CanonicalTexts texts;
    private final DocumentLimits limits;
    private final IngestionScheduler scheduler;
    private final CurrentTenant tenant;
    private final TransactionTemplate transaction;
    private final TenantQuotas quotas;

    SessionAppender(
            DocumentChanges changes,
            CanonicalTexts texts,
            DocumentLimits limits,
            IngestionScheduler scheduler,
            CurrentTenant tenant,
            TransactionTemplate transaction,
            TenantQuotas quotas) {
        this.quotas = quotas;
        this.changes = changes;
        this.texts = texts;
        this.limits = limits;
        this.scheduler = scheduler;
        this.tenant = tenant;
        this.transaction = transaction;
    }

    public SessionsAppended append(UUID id, AppendSessions request) {
        if (request == null || request.sessions() == null || request.sessions().isEmpty()) {
            throw ApiProblem.invalid("sessions", "give at least one session to append");
        }
        UUID tenantId = tenant.id();
        SessionsAppended appended;
        try {
            appended = transaction.execute(status -> {
                SessionsAppended done = appendLocked(tenantId, id, request);
                scheduler.schedule(id);
                return done;
            });
        } catch (DataIntegrityViolationException violation) {
            // through JPA the unique (tenant, content hash) key is reported as a plain integrity violation
            if (!String.valueOf(violation.getMostSpecificCause().getMessage()).contains("content_hash")) {
                throw violation;
            }
            throw ApiProblem.conflict(
                    "duplicate-content",
                    "Duplicate content",
                    "another document of this tenant already holds exactly this conversation",
                    "sessions");
        }
        texts.evict(id);
        return appended;
    }

    private SessionsAppended appendLocked(UUID tenantId, UUID id, AppendSessions request) {
        Document doc = changes.lock(tenantId, id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        if (doc.kind() != DocumentKind.CONVERSATION) {
            throw ApiProblem.conflict(
                    "not-a-conversation",
                    "Not a conversation",
                    "document " + id + " is a " + doc.kind()
                            + " document; sessions can only be appended to a CONVERSATION",
                    null);
        }
        doc.requireNotIngesting("append once it is READY or FAILED");
        CanonicalText before = texts.canonical(id);
        CanonicalText after = ConversationRenderer.append(before, request.sessions(), limits);
        List<RenderedSession> newSessions = after.sessions()
                .subList(before.sessions().size(), after.sessions().size());
        List<RenderedTurn> newTurns =
                after.turns().subList(before.turns().size(), after.turns().size());
        if (newTurns.isEmpty()) {
            throw ApiProblem.invalid("sessions", "the appended sessions need at least one turn");
        }
        limits.checkTextSize("sessions", after.text());
        quotas.requireStorage(after.text().substring(before.text().length()), 0);
        texts.append(id, after.text().substring(before.text().length()), newSessions, newTurns);
        doc.appendSessions(
                ContentHash.of(DocumentKind.CONVERSATION, after.text()),
                after.text().length());
        changes.flush(); // now, so that a conversation another document already holds is refused here as a duplicate
        List<AppendedSession> sessions = new ArrayList<>();
        for (RenderedSession session : newSessions) {
            sessions.add(new AppendedSession(
                    session.id(),
                    session.index() + 1,
                    session.span().start(),
                    session.span().end(),
                    newTurns.stream()
                            .filter(t -> t.sessionIndex() == session.index())
                            .map(RenderedTurn::id)
                            .toList()));
        }
        return new SessionsAppended(id, DocumentStatus.QUEUED, sessions);
    }
}
