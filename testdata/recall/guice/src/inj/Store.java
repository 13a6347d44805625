/* What Service writes to: bound to MemoryStore in AppModule. */
package inj;

interface Store {
    void put(String entry);

    int size();
}
