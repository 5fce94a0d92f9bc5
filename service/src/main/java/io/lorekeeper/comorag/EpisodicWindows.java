package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.List;

/**
 * The episodic layer's sliding windows (paper, Appendix B): the window grows with the number of
 * units N in steps (3, 5, 8, 10 units for N up to 20, 50, 100, 200), then logarithmically between
 * 10 and 20, so short texts keep detail and long ones are not summarised too coarsely.
 */
final class EpisodicWindows {

    private EpisodicWindows() {}

    static int size(int n) {
        if (n <= 20) {
            return 3;
        }
        if (n <= 50) {
            return 5;
        }
        if (n <= 100) {
            return 8;
        }
        if (n <= 200) {
            return 10;
        }
        // floor(2 log2 N) = floor(log2 N²), exact in integers
        long square = (long) n * n;
        int logarithmic = 63 - Long.numberOfLeadingZeros(square);
        return Math.min(20, Math.max(10, logarithmic));
    }

    /**
     * Windows of {@code size} consecutive indices of {@code 0..n-1}, starting every {@code stride}
     * (0: every {@code size}, non-overlapping); the last window ends at n and may be shorter.
     */
    static List<List<Integer>> of(int n, int size, int stride) {
        int step = stride <= 0 ? size : Math.min(stride, size);
        List<List<Integer>> windows = new ArrayList<>();
        for (int start = 0; start < n; start += step) {
            List<Integer> window = new ArrayList<>();
            for (int i = start; i < Math.min(n, start + size); i++) {
                window.add(i);
            }
            windows.add(window);
            if (start + size >= n) {
                break;
            }
        }
        return windows;
    }
}
