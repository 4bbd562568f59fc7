import { useSearchTerm } from "../lib/use-search-term";

export function SearchBox() {
  const { input, setInput, submit, clear } = useSearchTerm();
  return (
    <form
      className="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <svg className="search__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        className="search__input"
        type="search"
        name="search"
        placeholder="Search products, brands…"
        aria-label="Search products"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={200}
        data-testid="search-input"
        value={input}
        onChange={(e) => setInput(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && input) {
            e.preventDefault();
            clear();
          }
        }}
      />
    </form>
  );
}
