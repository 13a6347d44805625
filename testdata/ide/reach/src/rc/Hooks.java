package rc;

// Markers of Go to Implementations, type hierarchies, unreachable code and code
// lenses (ide/marker_test.go).
//   @impl(tok, name...)        Go to Implementations at tok: exactly these
//   @subtypes(tok, name...)    the direct subtypes of the type at tok: exactly these
//   @supertypes(tok, name...)  its direct supertypes, the JDK's left out: exactly these
//   @unreachable(tok, text...) an unreachable-code diagnostic starts at tok and
//                              contains every text
//   @lens(tok, title)          the resolved code lens of the declaration at tok
// Names are Class.method or Class, without the package. The graph is CHA at
// Correct-String: an interface call reaches every implementation, and native code may
// call every public method (NativeMethod, a dynamic caller).

interface Hook { //@subtypes("Hook", "HookA", "HookB", "SubHook") @impl("Hook", "HookA", "HookB")
    void fire(); //@impl("fire", "HookA.fire", "HookB.fire")
}

// No method of its own: the graph reaches none, so it is no implementation.
interface SubHook extends Hook { //@supertypes("SubHook", "Hook")
}

// Created by the reflection in run, whose name is a constant.
class HookA implements Hook { //@supertypes("HookA", "Hook")
    HookA() { //@lens("HookA", "1 caller · 1 dynamic")
    }

    public void fire() { //@lens("fire", "2 callers · 1 dynamic")
    }
}

// Correct-String resolves run's forName to HookA alone, so nothing creates a HookB;
// Correct-Cast (level 3) takes the cast to Hook for the set of classes run may
// create, HookB among them. Its fire is a target of run's interface call all the same.
class HookB implements Hook {
    HookB() { //@unreachable("HookB", "HookB() is unreachable at Correct-String (CHA call graph)", "Correct-Cast (level 3) reaches it: a reflection edge of Constructor.newInstance in rc.Hooks.run (line 53)") @lens("HookB", "0 callers · 0 dynamic")
        setUp();
    }

    private void setUp() { //@unreachable("setUp", "Correct-Cast (level 3) reaches it", "reaches rc.HookB.HookB(), which calls it")
    }

    public void fire() {
    }
}

interface Action {
    void act();
}

class Hooks {
    static void run() throws Exception { //@lens("run", "1 caller · 0 dynamic")
        Object h = Class.forName("rc.HookA").getDeclaredConstructor().newInstance(); //@impl("newInstance", "HookA.<init>")
        Hook hook = (Hook) h; //@subtypes("Hook", "HookA", "HookB", "SubHook") @impl("Hook", "HookA", "HookB")
        hook.fire(); //@impl("fire", "HookA.fire", "HookB.fire")
        // Nothing calls Action.act: the lambda's body never runs, run itself does.
        Action never = () -> target(); //@unreachable("()", "lambda in run is unreachable at Correct-String", "Behaved-CLs (level 1) reaches it: native code calling back")
    }

    // Called from the lambda only. Only Behaved-CLs reaches it, and the two below:
    // there native code may call back into any method of the program.
    static void target() { //@unreachable("target", "target() is unreachable at Correct-String", "Behaved-CLs (level 1) reaches it")
    }

    // Called from nowhere.
    static void unused() { //@unreachable("unused", "unused() is unreachable at Correct-String (CHA call graph); Behaved-CLs (level 1) reaches it: native code calling back (the NativeMethod node, the level 1 (Behaved-CLs) fallback)")
    }
}
