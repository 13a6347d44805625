// Where a graph's reach comes from (jcg-lsp why --top): static calls only, so that every
// subtree of the shortest-path tree can be counted by hand. Breadth first from main: small,
// big and shared (depth 1), b1 and b2 (from big), b3 (from b1). big's call of shared adds
// nothing; left out with the sites above it (big's too), main's call of shared loses shared.
package reach;

public class Main {
    public static void main(String[] args) {
        small();  // line 9: subtree {small}
        big();    // line 10: subtree {big, b1, b2, b3}; without it: main, small, shared
        shared(); // line 11: subtree {shared}; without it shared is still reached through big
    }

    static void small() {}

    static void big() {
        b1(); // line 17: subtree {b1, b3}
        b2(); // line 18: subtree {b2}
        shared();
    }

    static void b1() {
        b3();
    }

    static void b2() {}

    static void b3() {}

    static void shared() {}
}
