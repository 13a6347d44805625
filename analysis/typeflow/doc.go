// Package typeflow propagates sets of classes along a graph of a program's values:
// the engine of the call-graph algorithms that follow values, XTA (package xta: one
// set per method and per field) and TFA (package tfa: one set per value: a
// parameter, a method's return, an instruction's result, an operand where several
// definitions meet, a field). A class enters a set where an instance is created and
// flows along edges filtered by declared types: from a call's arguments into its
// targets' parameters, from their returns back into the call's result, through
// fields (a write into the field's set, a read out of it), casts (TFA) and one set
// for the elements of all reference arrays (XTA; TFA: of the arrays nobody
// traced). A virtual call reaches only the classes in its receiver's set. Under
// TFA lambdas, the program's arrays and the java.util collections and maps it
// creates are values too, one ID per creating instruction past the class IDs
// (objects.go, containers.go): an interface call reaches the lambdas that may be
// its receiver only; an array's loads read what the stores into it wrote, and a
// container's get, next and poll what its add and put stored (the collection
// API's calls are a model, not calls into summarised code), until the array or
// container escapes to code the sets do not follow.
//
// The JDK's code is summarised, not followed (Config.Summarised), as Zhuo and Zhang
// treat library code: each value of a JDK method is any object of its declared type
// created anywhere (RTA's answer), so the sets are per value in the application and
// its libraries, where users read call hierarchies. (TFA keeps two things of the
// JDK's code, returns.go. What a method returns when its code tells on every path:
// one that returns one of its arguments unchanged, as Objects.requireNonNull and
// Class.cast do, passes the argument's set through; one that returns objects it
// creates, as ArrayList.iterator and Arrays.asList do, returns their classes. And
// an argument of a static call that the method creates itself, as the action a
// JDK method makes and hands to doPrivileged.)
// Following the JDK's values bought almost nothing: with the whole JDK, its
// containers, arrays and reflective fallbacks put nearly every JDK value at
// "everything" anyway (javacc at Correct-JDK: 207,539 reachable methods followed,
// 207,558 summarised, 11,618 and 11,612 of 13,348 application call sites with at
// most one target), for ten times the time (24 s and 1.8 GB against 2.5 s and
// 1.3 GB).
//
// Soundness beyond bytecode, which the papers' languages do not have:
//   - objects created at no particular place (algo.Any: a library's clients'
//     instances) are global: every question sees them; objects made by code the
//     program does not contain (algo.Hidden: the JVM's, a constructor
//     reference's) are created at no value, and reach the program as what calls
//     into that code return or pass on (a constructor reached without being named
//     returns a new object). XTA's exceptions are global, as its handlers read
//     the method's one set; TFA follows an exception as any value until it is
//     thrown: what a handler catches is any created object of the caught type, as
//     thrown exceptions travel up the call stack;
//   - what native code is given, the JVM may keep ("held"): it calls back into
//     Java (upcalls, callbacks of natives at levels 1-5) with what it holds, and
//     keeps what those calls return; a native with a reference result may return
//     anything held or stored in a field or an array (Unsafe reads any field), and
//     one with an array result may fill it with what is held;
//   - Unsafe, reflective array stores and the JVM's own setters of System's streams
//     write fields and arrays the bytecode does not name: what they are given may be
//     in every array and every field of a fitting type. Where the assumption level
//     has reflection and native code obey access rules (Encap-Respect and above),
//     that is every field of the JDK, the public fields of the application and its
//     libraries, and their other fields only once their own code asks for access to
//     fields by name (field updaters, VarHandles, Field, Unsafe) or hands out a
//     method handle of the field (a record's toString): the JDK reaches the
//     private fields of a class only through what the class hands it. Native code
//     reads the same fields (the heap), and serialization the instance fields of
//     serializable classes whatever their access.
//     Deserialization writes the fields of the objects it creates, whatever their
//     access (algo.Follower.Written).
//   - a call that hands values other than as its callee's parameters (reflection,
//     method handles, Thread.start to run, a lambda's interface method to its
//     implementation, the JVM's own calls) passes everything it hands to every
//     parameter of a fitting type, and the elements of every array where it passes
//     an array or a list. Through a lambda object, though, a call never reaches
//     the parameters the lambda bound at its capture (LambdaDispatch): those hold
//     what the capturing invokedynamic captured, in order (Captured), whoever
//     calls the lambda, the JDK included. The analysis counts them (Captures) for
//     private implementations only, javac's lambda bodies among them, whose every
//     handle in their nest is a LambdaMetafactory site's implementation;
//   - a method whose code cannot be analysed (TFA) is treated as native code.
//
// The recall test (analysis/recall) checks these rules against methods real programs
// execute.
package typeflow
