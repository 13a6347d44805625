/*
 * The container model of TFA (analysis/typeflow/containers.go): a java.util
 * collection or map the program creates is an object with nodes of its own
 * contents, so an element read back has the classes stored into that container,
 * not every class created anywhere. RTA answers from the classes created anywhere.
 *
 * Soundness: a container handed to JDK code the model does not know (stream, a
 * copy of a JDK-made list, a field that reflection or serialization may read)
 * escapes: its elements are then any object, Blob included (Blob is created, but
 * never stored in a container the program keeps to itself).
 *
 * The levels matter for fields: from Encap-Respect on, JDK code reads and writes a
 * private field of the program only when the program hands it (a method handle,
 * as a record's toString does, or serialization), so a list in a private field
 * stays the program's at level 6; at Behaved-CLs reflection may write any field.
 */
// @levels(1,6) @algos(rta,tfa)
package coll;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class Main {
    interface Shape { double area(); }
    static class Square implements Shape { public double area() { return 1; } }
    static class Circle implements Shape { public double area() { return 3; } }
    static class Blob implements Shape { public double area() { return 0; } }

    /** Serialization reads its fields whatever their access: the list escapes. */
    static class Saved implements Serializable {
        private final List<Shape> items = new ArrayList<>();
    }

    /** toString reads the record's private field through a method handle: it escapes. */
    record Pair(List<Shape> items) {}

    private final List<Shape> kept = new ArrayList<>();

    public static void main(String[] args) {
        Shape blob = new Blob();
        blob.area();

        // A local list: what add stored is what get and the iterator return.
        List<Shape> squares = new ArrayList<>();
        squares.add(new Square());
        squares.get(0).area(); // @calls(coll.Main$Square.area) @calls[rta](coll.Main$Circle.area, coll.Main$Blob.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        for (Shape s : squares) {
            s.area(); // @calls(coll.Main$Square.area) @calls[rta](coll.Main$Blob.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        }

        // A map of lists: get returns the list put, whose class is LinkedList.
        Map<String, List<Shape>> byName = new HashMap<>();
        List<Shape> circles = new LinkedList<>();
        circles.add(new Circle());
        byName.put("c", circles);
        byName.get("c").size(); // @calls(java.util.LinkedList.size) @calls[rta](java.util.ArrayList.size) @!calls[tfa](java.util.ArrayList.size)
        circles.get(0).area(); // @calls(coll.Main$Circle.area)

        // A map's views: entrySet, keySet and values walk the map's own keys and
        // values, though their classes are not told by the JDK's code (HashMap
        // caches them in fields): a call on them reaches every created class of
        // its type, as before, and a cast to their superclass keeps them.
        Map<String, Shape> named = new HashMap<>();
        named.put("s", new Square());
        for (Map.Entry<String, Shape> e : named.entrySet()) {
            e.getValue().area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        }
        for (Shape v : named.values()) {
            v.area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        }
        ((java.util.AbstractCollection<Shape>) named.values()).size(); // @calls(java.util.HashMap$Values.size)
        Map<String, Shape> swapped = new HashMap<>();
        swapped.put("s", new Square());
        for (Map.Entry<String, Shape> e : swapped.entrySet()) {
            e.setValue(new Circle());
        }
        swapped.get("s").area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)
        Set<Shape> set = new HashSet<>();
        set.add(new Circle());
        for (Shape s : set) {
            s.area(); // @calls(coll.Main$Circle.area) @!calls[tfa](coll.Main$Square.area, coll.Main$Blob.area)
        }

        // An unmodifiable wrapper reads the list through, and sorting keeps its
        // elements.
        List<Shape> wrapped = new ArrayList<>();
        wrapped.add(new Square());
        java.util.Collections.sort(wrapped, (a, b) -> 0);
        wrapped.sort(null);
        for (Shape s : java.util.Collections.unmodifiableList(wrapped)) {
            s.area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        }
        Map<String, Shape> frozen = java.util.Collections.unmodifiableMap(named);
        frozen.get("s").area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)

        // A priority queue and a copy-on-write list of java.util.concurrent.
        java.util.Queue<Shape> queue = new java.util.PriorityQueue<>((a, b) -> 0);
        queue.offer(new Circle());
        queue.poll().area(); // @calls(coll.Main$Circle.area) @!calls[tfa](coll.Main$Square.area, coll.Main$Blob.area)
        List<Shape> cow = new java.util.concurrent.CopyOnWriteArrayList<>();
        cow.add(new Square());
        for (Shape s : cow) {
            s.area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        }

        // A concurrent map: keySet(V) is a view of its keys whose add puts the key
        // with V, so the map's values are the put Square and the Circle given to
        // keySet (its keys: the put Square and the added Circle).
        java.util.concurrent.ConcurrentHashMap<Shape, Shape> cmap = new java.util.concurrent.ConcurrentHashMap<>();
        cmap.put(new Square(), new Square());
        cmap.keySet(new Circle()).add(new Circle());
        for (Shape v : cmap.values()) {
            v.area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)
        }
        for (Shape k : cmap.keySet()) {
            k.area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)
        }
        // An add to its entry set puts the entry's key and value: the map escapes.
        java.util.concurrent.ConcurrentHashMap<String, Shape> centries = new java.util.concurrent.ConcurrentHashMap<>();
        centries.put("s", new Square());
        centries.entrySet().add(new java.util.AbstractMap.SimpleEntry<>("c", new Circle()));
        centries.get("c").area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area, coll.Main$Blob.area)
        try {
            blocking();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }

        // The unmodifiable factories make a container of the program's holding
        // their arguments: List.of with two elements, and with eleven (an array),
        // Set.of, Map.of (keys and values in turn) and copyOf.
        List<Shape> listOf = List.of(new Square(), new Square());
        listOf.get(0).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        List<Shape> eleven = List.of(new Circle(), new Circle(), new Circle(), new Circle(), new Circle(),
                new Circle(), new Circle(), new Circle(), new Circle(), new Circle(), new Circle());
        eleven.get(10).area(); // @calls(coll.Main$Circle.area) @!calls[tfa](coll.Main$Square.area, coll.Main$Blob.area)
        for (Shape s : Set.<Shape>of(new Circle())) {
            s.area(); // @calls(coll.Main$Circle.area) @!calls[tfa](coll.Main$Square.area, coll.Main$Blob.area)
        }
        Map<Shape, Shape> mapOf = Map.of(new Square(), new Circle());
        mapOf.get(blob).area(); // @calls(coll.Main$Circle.area) @!calls[tfa](coll.Main$Square.area, coll.Main$Blob.area)
        for (Shape k : mapOf.keySet()) {
            k.area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        }
        List.copyOf(squares).get(0).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        List.copyOf(listOf).get(0).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        // List.of(a, b) is a List12, as the JDK's code of the factory tells.
        listOf.size(); // @calls(java.util.ImmutableCollections$List12.size) @calls[rta](java.util.ImmutableCollections$ListN.size) @!calls[tfa](java.util.ImmutableCollections$ListN.size)
        // A copy is one of the JDK's unmodifiable lists, a List12 or a ListN (its
        // factory's code returns the empty ListN a static field holds, which no
        // summary tells): their iterator, ListItr, walks the copy's contents.
        for (Shape s : List.copyOf(squares)) {
            s.area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        }
        List.copyOf(squares).size(); // @calls(java.util.ImmutableCollections$List12.size, java.util.ImmutableCollections$ListN.size) @!calls[tfa](java.util.ArrayList.size, java.util.LinkedList.size)
        // A copy of a list the JDK made has contents nobody follows: any object.
        List.copyOf(java.util.Collections.<Shape>singletonList(new Circle())).get(0).area(); // @calls(coll.Main$Circle.area, coll.Main$Blob.area)

        // The functional operations: computeIfAbsent and merge store what the
        // lambda returns, forEach and removeIf keep the contents; a function that is
        // not a lambda (an object of the program's class) makes the map escape. The
        // list a lambda's body creates is an ArrayList (get reaches ArrayList's
        // only), but its elements are any object: summarised code may call the
        // lambda anywhere and keep what it returns.
        Map<String, List<Shape>> groups = new HashMap<>();
        groups.computeIfAbsent("s", k -> new ArrayList<>()).add(new Square());
        groups.get("s").get(0).area(); // @calls(java.util.ArrayList.get, coll.Main$Square.area, coll.Main$Blob.area) @calls[rta](java.util.LinkedList.get) @!calls[tfa](java.util.LinkedList.get)
        Map<String, Shape> merged = new HashMap<>();
        merged.merge("c", new Square(), (a, b) -> new Circle());
        merged.get("c").area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)
        merged.forEach((k, v) -> {});
        merged.values().removeIf(v -> false);
        merged.get("c").area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)
        Map<String, Shape> viaClass = new HashMap<>();
        viaClass.computeIfAbsent("x", new MakeCircle());
        viaClass.get("x").area(); // @calls(coll.Main$Circle.area, coll.Main$Blob.area)

        // An Optional the program makes holds what of and ofNullable were given;
        // orElse and orElseGet's lambda add their own. map is not modelled: the
        // Optional it is called on escapes.
        java.util.Optional<Shape> maybe = java.util.Optional.of(new Square());
        maybe.get().area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        maybe.orElse(new Circle()).area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)
        java.util.Optional.<Shape>ofNullable(new Circle()).orElseGet(() -> new Square()).area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)
        java.util.Optional<Shape> mapped = java.util.Optional.of(new Circle());
        mapped.map(x -> x).isPresent();
        mapped.get().area(); // @calls(coll.Main$Circle.area, coll.Main$Blob.area)

        // Streams: a list's stream, and what filter, sorted and findFirst return,
        // are views of its elements; map's is a view of what its lambda returns;
        // forEach and count keep the contents (collect lets them escape, below).
        List<Shape> streamy = new ArrayList<>();
        streamy.add(new Square());
        streamy.stream().filter(s -> true).sorted((a, b) -> 0).forEach(s -> {});
        streamy.stream().filter(s -> true).findFirst().get().area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        streamy.stream().<Shape>map(s -> new Circle()).toList().get(0).area(); // @calls(coll.Main$Circle.area) @!calls[tfa](coll.Main$Square.area, coll.Main$Blob.area)
        System.out.println(streamy.stream().count() + streamy.stream().mapToInt(s -> 1).sum()); // @calls(java.util.stream.IntPipeline.sum)
        streamy.get(0).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        // collect with Collectors.toList makes a new list of the stream's elements.
        List<Shape> gathered = streamy.stream().filter(s -> true).collect(java.util.stream.Collectors.toList());
        gathered.get(0).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        // A stream the JDK made is not followed: what its map returns is any object.
        java.util.stream.Stream.of(new Square()).<Shape>map(s -> new Circle()).findFirst().get().area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area, coll.Main$Blob.area)

        // Arrays.asList is backed by the array: a set through the list is in the
        // array, and the array's elements are in the list.
        Shape[] backing = { new Square() };
        List<Shape> asList = java.util.Arrays.asList(backing);
        asList.set(0, new Circle());
        backing[0].area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)
        asList.get(0).area(); // @calls(coll.Main$Square.area, coll.Main$Circle.area) @!calls[tfa](coll.Main$Blob.area)

        // toArray makes an array of the elements, or fills the one it is given; a
        // list the JDK made fills it with any object.
        List<Shape> arrayed = new ArrayList<>();
        arrayed.add(new Square());
        Object[] plain = arrayed.toArray();
        ((Shape) plain[0]).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        Shape[] typed = arrayed.toArray(new Shape[0]);
        typed[0].area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        Shape[] into = new Shape[1];
        arrayed.toArray(into);
        into[0].area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
        Shape[] filled = new Shape[1];
        java.util.Collections.<Shape>singletonList(new Circle()).toArray(filled);
        filled[0].area(); // @calls(coll.Main$Circle.area, coll.Main$Blob.area)

        // addAll copies another container's contents.
        List<Shape> copy = new ArrayList<>(squares);
        copy.addAll(squares);
        copy.get(1).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)

        // Turning a list into a string only reads it (javac 17 hands it to
        // String.valueOf first), and what a lambda captures goes to its body, not
        // to the JDK's bootstrap method.
        List<Shape> printed = new ArrayList<>();
        printed.add(new Square());
        String text = "shapes: " + printed;
        System.out.println(printed);
        printed.get(0).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Blob.area)
        List<Shape> captured = new ArrayList<>();
        Runnable adder = () -> captured.add(new Circle());
        adder.run();
        captured.get(0).area(); // @calls(coll.Main$Circle.area) @!calls[tfa](coll.Main$Square.area, coll.Main$Blob.area)

        // Escapes: a stream's collect with a collector the model does not know, a
        // copy of a list the JDK made, a getter of a record.
        List<Shape> streamed = new ArrayList<>();
        streamed.add(new Square());
        streamed.stream().collect(java.util.stream.Collectors.groupingBy(s -> s));
        streamed.get(0).area(); // @calls(coll.Main$Square.area, coll.Main$Blob.area)
        List<Shape> fromJdk = new ArrayList<>(java.util.Collections.singletonList(new Circle()));
        fromJdk.get(0).area(); // @calls(coll.Main$Circle.area, coll.Main$Blob.area)
        Pair pair = new Pair(new ArrayList<>());
        pair.items().add(new Square());
        pair.toString();
        pair.items().get(0).area(); // @calls(coll.Main$Square.area, coll.Main$Blob.area)

        // A list in a private field stays the program's from Encap-Respect on.
        Main m = new Main();
        m.kept.add(new Circle());
        m.kept.get(0).area(); // @calls(coll.Main$Circle.area) @calls[level=1](coll.Main$Blob.area) @!calls[tfa,level>=2](coll.Main$Blob.area)
        Saved saved = new Saved();
        saved.items.add(new Square());
        saved.items.get(0).area(); // @calls(coll.Main$Square.area, coll.Main$Blob.area)

        // An iterator the program hands on escapes its list.
        List<Shape> handed = new ArrayList<>();
        handed.add(new Circle());
        Iterator<Shape> it = handed.iterator();
        drain(it);
        handed.get(0).area(); // @calls(coll.Main$Circle.area, coll.Main$Blob.area)
    }

    static class MakeCircle implements java.util.function.Function<String, Shape> {
        public Shape apply(String name) { return new Circle(); }
    }

    /** A blocking queue's put and take store and load, as offer and poll do. */
    static void blocking() throws InterruptedException {
        java.util.concurrent.BlockingQueue<Shape> bq = new java.util.concurrent.LinkedBlockingQueue<>();
        bq.put(new Circle());
        bq.take().area(); // @calls(coll.Main$Circle.area) @!calls[tfa](coll.Main$Square.area, coll.Main$Blob.area)
        java.util.concurrent.BlockingDeque<Shape> bd = new java.util.concurrent.LinkedBlockingDeque<>();
        bd.putFirst(new Square());
        bd.pollLast(1, java.util.concurrent.TimeUnit.SECONDS).area(); // @calls(coll.Main$Square.area) @!calls[tfa](coll.Main$Circle.area, coll.Main$Blob.area)
    }

    static void drain(Iterator<Shape> it) {
        it.forEachRemaining(s -> {});
    }
}
