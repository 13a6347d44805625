/*
 * recorder: a JVMTI agent that records every Java method that executes at least
 * once and, when the VM dies, writes one line per distinct method:
 *
 *     pkg/Cls.name(desc)<TAB>caller
 *
 * where caller is "pkg/Cls.name(desc)@bci" of the frame below the method at its
 * first entry (bci -1: a native frame, i.e. a JNI upcall), or "-" when there is
 * none (a thread's first method, a method the JVM calls): what tells a reader
 * why the method ran.
 *
 * Options (after "=" in -agentpath), separated by commas, out last:
 *
 *     mode=entry|breakpoints,out=FILE
 *
 * mode=entry (the default) enables MethodEntry: exact, natives included, but
 * HotSpot then runs every thread in interpreter-only mode and posts an event
 * for every call, which makes programs 10-30 times slower. mode=breakpoints
 * sets a breakpoint at the first instruction of every method of every class
 * when it is prepared and clears it at its first hit, so compiled code runs
 * and a method costs one event in all; natives, which have no instructions,
 * are recorded when HotSpot links them lazily at their first call
 * (NativeMethodBind with the native itself on top of the stack), not when they
 * are bound by RegisterNatives (Object, Class, Thread, Unsafe, ...), which
 * says nothing about calls.
 *
 * Why names are taken at first entry, not at VMDeath: a jmethodID of a class
 * that was unloaded in between (a hidden class of a lambda form, a class of a
 * discarded loader) can no longer be resolved at VMDeath.
 *
 * Why a lock-free set: MethodEntry fires for every call in every thread, so
 * the common case (a method already seen) must not take a lock. The set is
 * open addressing over jmethodID values inserted with compare-and-swap; a slot
 * once taken is never freed. The name of a slot is published after the ID, so
 * a reader at VMDeath may see an ID without a name yet; it resolves the name
 * then (the class is alive, since a thread is in the method).
 *
 * In mode=entry, MethodEntry is posted for native methods too (JVMTI spec,
 * MethodEntry), so natives that are called are recorded like other methods,
 * and since HotSpot runs interpreter-only, nothing is lost to compiled or
 * inlined code.
 *
 * What neither mode records: methods that run only before the live phase (the
 * JVM's System.initPhase1, the module system's boot), for which HotSpot posts
 * no events.
 */
#include <jvmti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SET_BITS 22 /* 4M slots: far more distinct methods than any workload runs */
#define SET_SIZE (1u << SET_BITS)

static jmethodID *ids;      /* slot -> method, NULL when free */
static char **names;        /* slot -> "pkg/Cls.name(desc)", NULL until resolved */
static char **callers;      /* slot -> first caller, NULL for none */
static volatile int full;   /* the set overflowed: the output is incomplete */
static volatile int failures; /* names that could not be resolved */
static char *out_path;
static jrawMonitorID write_lock;
static volatile int written;

static char *method_name(jvmtiEnv *jvmti, jmethodID m) {
    jclass cls = NULL;
    char *csig = NULL, *mname = NULL, *mdesc = NULL, *res = NULL;
    if ((*jvmti)->GetMethodDeclaringClass(jvmti, m, &cls) != JVMTI_ERROR_NONE) goto done;
    if ((*jvmti)->GetClassSignature(jvmti, cls, &csig, NULL) != JVMTI_ERROR_NONE) goto done;
    if ((*jvmti)->GetMethodName(jvmti, m, &mname, &mdesc, NULL) != JVMTI_ERROR_NONE) goto done;
    {
        /* "Lpkg/Cls;" -> "pkg/Cls"; array classes ("[...") are kept as they are. */
        const char *c = csig;
        size_t clen = strlen(csig);
        if (clen >= 2 && csig[0] == 'L' && csig[clen - 1] == ';') {
            c = csig + 1;
            clen -= 2;
        }
        size_t n = clen + 1 + strlen(mname) + strlen(mdesc) + 1;
        res = malloc(n);
        if (res != NULL) {
            memcpy(res, c, clen);
            res[clen] = '.';
            strcpy(res + clen + 1, mname);
            strcat(res, mdesc);
        }
    }
done:
    if (csig) (*jvmti)->Deallocate(jvmti, (unsigned char *)csig);
    if (mname) (*jvmti)->Deallocate(jvmti, (unsigned char *)mname);
    if (mdesc) (*jvmti)->Deallocate(jvmti, (unsigned char *)mdesc);
    /* A local reference made in an event callback is freed when it returns. */
    return res;
}

/* first_caller names the caller of the current frame of thread: depth 1 of its stack. */
static char *first_caller(jvmtiEnv *jvmti, jthread thread) {
    jvmtiFrameInfo frames[2];
    jint n = 0;
    if ((*jvmti)->GetStackTrace(jvmti, thread, 0, 2, frames, &n) != JVMTI_ERROR_NONE || n < 2) return NULL;
    char *name = method_name(jvmti, frames[1].method);
    if (name == NULL) return NULL;
    char *res = malloc(strlen(name) + 24);
    if (res != NULL) sprintf(res, "%s@%ld", name, (long)frames[1].location);
    free(name);
    return res;
}

static uint32_t hash(jmethodID m) {
    uint64_t x = (uint64_t)(uintptr_t)m;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (uint32_t)x & (SET_SIZE - 1);
}

/* record adds m to the set; it returns 1 when m was not there before. */
static int record(jvmtiEnv *jvmti, jthread thread, jmethodID m) {
    uint32_t i = hash(m);
    for (uint32_t probes = 0; probes < SET_SIZE; probes++, i = (i + 1) & (SET_SIZE - 1)) {
        jmethodID cur = __atomic_load_n(&ids[i], __ATOMIC_ACQUIRE);
        if (cur == m) return 0;
        if (cur == NULL) {
            jmethodID expected = NULL;
            if (__atomic_compare_exchange_n(&ids[i], &expected, m, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                char *n = method_name(jvmti, m);
                if (n == NULL) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
                /* Published before the name: a reader that sees the name sees its caller. */
                __atomic_store_n(&callers[i], first_caller(jvmti, thread), __ATOMIC_RELEASE);
                __atomic_store_n(&names[i], n, __ATOMIC_RELEASE);
                return 1;
            }
            if (expected == m) return 0; /* another thread inserted it just now */
        }
    }
    full = 1;
    return 0;
}

/* recorded tells whether m is in the set. */
static int recorded(jmethodID m) {
    uint32_t i = hash(m);
    for (uint32_t probes = 0; probes < SET_SIZE; probes++, i = (i + 1) & (SET_SIZE - 1)) {
        jmethodID cur = __atomic_load_n(&ids[i], __ATOMIC_ACQUIRE);
        if (cur == m) return 1;
        if (cur == NULL) return 0;
    }
    return 0;
}

static void JNICALL on_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID m) {
    (void)jni;
    record(jvmti, thread, m);
}

static void JNICALL on_breakpoint(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID m, jlocation loc) {
    (void)jni;
    record(jvmti, thread, m);
    (*jvmti)->ClearBreakpoint(jvmti, m, loc);
}

/* set_breakpoints puts a breakpoint at the start of every method of cls that has code and has not run. */
static void set_breakpoints(jvmtiEnv *jvmti, jclass cls) {
    jint n = 0;
    jmethodID *ms = NULL;
    if ((*jvmti)->GetClassMethods(jvmti, cls, &n, &ms) != JVMTI_ERROR_NONE) return;
    for (jint k = 0; k < n; k++) {
        jint mods = 0;
        if ((*jvmti)->GetMethodModifiers(jvmti, ms[k], &mods) != JVMTI_ERROR_NONE) continue;
        if ((mods & (0x0100 | 0x0400)) != 0) continue; /* native, abstract: no code */
        if (recorded(ms[k])) continue;
        /* JVMTI_ERROR_DUPLICATE: the class was prepared during VMInit's sweep. */
        (*jvmti)->SetBreakpoint(jvmti, ms[k], 0);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)ms);
}

static void JNICALL on_class_prepare(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass cls) {
    (void)jni;
    (void)thread;
    set_breakpoints(jvmti, cls);
}

/* Classes prepared before the live phase (no ClassPrepare for them then). */
static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jni;
    (void)thread;
    jint n = 0;
    jclass *cs = NULL;
    if ((*jvmti)->GetLoadedClasses(jvmti, &n, &cs) != JVMTI_ERROR_NONE) return;
    for (jint k = 0; k < n; k++) {
        jint status = 0;
        if ((*jvmti)->GetClassStatus(jvmti, cs[k], &status) != JVMTI_ERROR_NONE) continue;
        if ((status & JVMTI_CLASS_STATUS_PREPARED) == 0 || (status & (JVMTI_CLASS_STATUS_ARRAY | JVMTI_CLASS_STATUS_PRIMITIVE)) != 0) continue;
        set_breakpoints(jvmti, cs[k]);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)cs);
}

/*
 * A native is linked lazily at its first call: then the native itself is the
 * top frame of the calling thread. Bindings by RegisterNatives happen with
 * another method on top (registerNatives, JNI_OnLoad) or none.
 */
static void JNICALL on_native_bind(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID m, void *addr, void **new_addr) {
    (void)jni;
    (void)addr;
    (void)new_addr;
    if (thread == NULL) return;
    jvmtiFrameInfo top;
    jint n = 0;
    if ((*jvmti)->GetStackTrace(jvmti, thread, 0, 1, &top, &n) != JVMTI_ERROR_NONE || n < 1 || top.method != m) return;
    record(jvmti, thread, m);
}

static void write_file(jvmtiEnv *jvmti) {
    (*jvmti)->RawMonitorEnter(jvmti, write_lock);
    if (written) {
        (*jvmti)->RawMonitorExit(jvmti, write_lock);
        return;
    }
    written = 1;
    FILE *f = fopen(out_path, "w");
    if (f == NULL) {
        fprintf(stderr, "jvmrecord: cannot create %s\n", out_path);
        (*jvmti)->RawMonitorExit(jvmti, write_lock);
        return;
    }
    long n = 0, unresolved = 0;
    for (uint32_t i = 0; i < SET_SIZE; i++) {
        jmethodID m = __atomic_load_n(&ids[i], __ATOMIC_ACQUIRE);
        if (m == NULL) continue;
        char *name = __atomic_load_n(&names[i], __ATOMIC_ACQUIRE);
        if (name == NULL) {
            /* Inserted by a thread that has not yet stored the name, or whose look-up failed. */
            name = method_name(jvmti, m);
            if (name == NULL) {
                unresolved++;
                continue;
            }
        }
        char *caller = __atomic_load_n(&callers[i], __ATOMIC_ACQUIRE);
        fprintf(f, "%s\t%s\n", name, caller != NULL ? caller : "-");
        n++;
    }
    /* Trailer lines start with '#' so that readers can tell a complete file from a cut one. */
    fprintf(f, "# methods %ld unresolved %ld failures %d full %d\n", n, unresolved, failures, full);
    if (fclose(f) != 0) fprintf(stderr, "jvmrecord: cannot write %s\n", out_path);
    (*jvmti)->RawMonitorExit(jvmti, write_lock);
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni) {
    (void)jni;
    write_file(jvmti);
}

static int breakpoints_mode;

static int parse_options(const char *options) {
    if (options == NULL) return 0;
    const char *p = strstr(options, "out=");
    if (p == NULL || (p != options && p[-1] != ',')) return 0;
    if (strncmp(options, "mode=breakpoints,", 17) == 0) breakpoints_mode = 1;
    else if (p != options && strncmp(options, "mode=entry,", 11) != 0) return 0;
    p += 4;
    /* The path is the rest of the options: paths may contain commas. */
    out_path = strdup(p);
    return out_path != NULL && *out_path != '\0';
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    if (!parse_options(options)) {
        fprintf(stderr, "jvmrecord: usage: -agentpath:recorder.so=[mode=entry|breakpoints,]out=FILE (got %s)\n", options ? options : "no options");
        return JNI_ERR;
    }
    ids = calloc(SET_SIZE, sizeof *ids);
    names = calloc(SET_SIZE, sizeof *names);
    callers = calloc(SET_SIZE, sizeof *callers);
    if (ids == NULL || names == NULL || callers == NULL) {
        fprintf(stderr, "jvmrecord: out of memory\n");
        return JNI_ERR;
    }
    jvmtiEnv *jvmti;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
        fprintf(stderr, "jvmrecord: no JVMTI 1.2 environment\n");
        return JNI_ERR;
    }
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    if (breakpoints_mode) {
        caps.can_generate_breakpoint_events = 1;
        caps.can_generate_native_method_bind_events = 1;
    } else {
        caps.can_generate_method_entry_events = 1;
    }
    jvmtiError err = (*jvmti)->AddCapabilities(jvmti, &caps);
    if (err != JVMTI_ERROR_NONE) {
        fprintf(stderr, "jvmrecord: AddCapabilities: error %d\n", err);
        return JNI_ERR;
    }
    if ((*jvmti)->CreateRawMonitor(jvmti, "jvmrecord", &write_lock) != JVMTI_ERROR_NONE) {
        fprintf(stderr, "jvmrecord: CreateRawMonitor failed\n");
        return JNI_ERR;
    }
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMDeath = on_vm_death;
    jvmtiEvent events[8];
    int nevents = 0;
    events[nevents++] = JVMTI_EVENT_VM_DEATH;
    if (breakpoints_mode) {
        cb.Breakpoint = on_breakpoint;
        cb.ClassPrepare = on_class_prepare;
        cb.VMInit = on_vm_init;
        cb.NativeMethodBind = on_native_bind;
        events[nevents++] = JVMTI_EVENT_BREAKPOINT;
        events[nevents++] = JVMTI_EVENT_CLASS_PREPARE;
        events[nevents++] = JVMTI_EVENT_VM_INIT;
        events[nevents++] = JVMTI_EVENT_NATIVE_METHOD_BIND;
    } else {
        cb.MethodEntry = on_method_entry;
        events[nevents++] = JVMTI_EVENT_METHOD_ENTRY;
    }
    if ((*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof cb) != JVMTI_ERROR_NONE) {
        fprintf(stderr, "jvmrecord: SetEventCallbacks failed\n");
        return JNI_ERR;
    }
    for (int k = 0; k < nevents; k++) {
        if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, events[k], NULL) != JVMTI_ERROR_NONE) {
            fprintf(stderr, "jvmrecord: cannot enable event %d\n", events[k]);
            return JNI_ERR;
        }
    }
    return JNI_OK;
}
