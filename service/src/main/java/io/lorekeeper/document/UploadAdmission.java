package io.lorekeeper.document;

import java.io.IOException;
import java.util.concurrent.Semaphore;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import io.lorekeeper.document.files.FileLimits;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.FilterRefusal;
import tools.jackson.databind.json.JsonMapper;

/**
 * Admits at most {@link FileLimits#maxConcurrentUploads} multipart requests at once and answers 429
 * to the next before its body is read. Uploaded parts are held in memory rather than in temporary
 * files (which a request that never ends left behind), so this bound, times the request size limit,
 * is what uploads can take of the heap.
 */
@Component
class UploadAdmission extends OncePerRequestFilter {

    private final Semaphore slots;
    private final JsonMapper json;

    UploadAdmission(FileLimits limits, JsonMapper json) {
        this.slots = new Semaphore(Math.max(1, limits.maxConcurrentUploads()));
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String type = request.getContentType();
        return type == null || !type.regionMatches(true, 0, "multipart/", 0, "multipart/".length());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!slots.tryAcquire()) {
            ApiProblem busy = new ApiProblem(
                            ApiProblem.Kind.TOO_MANY_REQUESTS,
                            "uploads-busy",
                            "Too many uploads at once",
                            "other uploads are being received; send this one again shortly",
                            "file")
                    .header("Retry-After", "5");
            FilterRefusal.write(request, response, busy, json);
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            slots.release();
        }
    }
}
