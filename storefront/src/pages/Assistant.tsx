/**
 * The shopping assistant (`/assistant`): a chat with the store's assistant. On open it continues
 * the shopper's recent conversation or starts one (recent-or-create); each message answers with
 * short text, product cards (the storefront's ProductCard), links, follow-up suggestions and the
 * knowledge guides it quotes (citations, see ../components/AssistantCitations.tsx).
 * `?product=<id>` starts the chat about a product ("what goes with this?", "what size?").
 *
 * States: starting (spinner), could not start (error with retry), empty conversation (examples),
 * sending (the message shows at once, a typing indicator follows), a failed send (the message is
 * taken back into the input, with the server's message and a retry).
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import type { AgentMessage } from "~/contract";
import { AGENT_MESSAGE_MAX } from "~/contract/assistant";
import { errorMessage, shouldRetry, useApi } from "../lib/api";
import { useSession, USER_QUERY_PREFIX } from "../lib/session";
import { productIdFromParam } from "../lib/product-path";
import { ProductCardWithQuickAdd } from "../components/AddToCartQuick";
import { AssistantCitations } from "../components/AssistantCitations";
import { Spinner } from "../components/FeedStatus";
import { useStaticPageMeta } from "../lib/use-page-meta";
import "./Assistant.css";

const EXAMPLES = ["Black jeans under $80", "Linen shirts for men", "What goes with a navy blazer?", "Where is my order?"];

type ChatMessage = AgentMessage & { pending?: boolean };

export function Assistant() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { user, status: sessionStatus, error: sessionError, refresh } = useSession();
  const [params, setParams] = useSearchParams();
  const productId = productIdFromParam(params.get("product"));
  const [text, setText] = useState("");
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [sendError, setSendError] = useState<{ message: string; content: string } | null>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const key = [USER_QUERY_PREFIX, "assistant", user?.id ?? null] as const;
  const conversation = useQuery({
    queryKey: key,
    queryFn: () => api.agentConversationsRecentOrCreate(),
    enabled: !!user,
    staleTime: Infinity,
    retry: shouldRetry,
  });
  const conversationId = conversation.data?.id ?? null;

  const product = useQuery({
    queryKey: ["product", productId],
    queryFn: () => api.productsGetById({ params: { id: productId ?? "" } }),
    enabled: !!productId,
    retry: false,
  });

  // The conversation's stored messages, when it is (re)loaded.
  useEffect(() => {
    setMessages(conversation.data?.messages ?? []);
    setSendError(null);
  }, [conversation.data]);

  useStaticPageMeta();

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [messages.length]);

  const send = useMutation({
    mutationFn: (content: string) => {
      if (!conversationId) throw new Error("The conversation is not ready yet");
      return api.agentConversationsSendMessage({ params: { id: conversationId }, body: { content, product_id: product.data ? product.data.id : undefined } });
    },
    onMutate: (content) => {
      setSendError(null);
      const pending: ChatMessage = {
        id: `pending-${Date.now()}`,
        conversation_id: conversationId ?? "",
        role: "user",
        content,
        product_id: product.data?.id ?? null,
        created_at: new Date().toISOString(),
        intent: null,
        products: [],
        links: [],
        suggestions: [],
        citations: [],
        pending: true,
      };
      setMessages((m) => [...m, pending]);
      setText("");
    },
    onSuccess: ({ message, reply }) => {
      setMessages((m) => [...m.filter((x) => !x.pending), message, reply]);
    },
    onError: (error, content) => {
      setMessages((m) => m.filter((x) => !x.pending));
      setText((t) => t || content);
      setSendError({ message: errorMessage(error, "The assistant could not answer. Please try again."), content });
    },
  });

  const restart = useMutation({
    mutationFn: () => api.agentConversationsCreate({ body: {} }),
    onSuccess: (created) => {
      queryClient.setQueryData(key, { ...created, created: true });
      setText("");
      inputRef.current?.focus();
    },
  });

  function submit(content: string) {
    const c = content.trim();
    if (!c || send.isPending || !conversationId) return;
    send.mutate(c.slice(0, AGENT_MESSAGE_MAX));
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    submit(text);
  }

  if (sessionStatus === "error") {
    return (
      <div className="state state--error" role="alert">
        <h1 className="state__title">The assistant could not start</h1>
        <p className="state__text">{errorMessage(sessionError)}</p>
        <button type="button" className="button" onClick={refresh}>
          Retry
        </button>
      </div>
    );
  }
  if (!user || conversation.isPending) return <Spinner label="Starting the assistant…" />;
  if (conversation.isError) {
    return (
      <div className="state state--error" role="alert" data-testid="assistant-error">
        <h1 className="state__title">The assistant could not start</h1>
        <p className="state__text">{errorMessage(conversation.error)}</p>
        <button type="button" className="button" onClick={() => void conversation.refetch()}>
          Retry
        </button>
      </div>
    );
  }

  const lastAssistant = [...messages].reverse().find((m) => m.role === "assistant");
  const closed = conversation.data.status === "closed";

  return (
    <section className="page assistant" aria-labelledby="assistant-heading" data-testid="assistant" data-conversation-id={conversationId ?? undefined}>
      <div className="page__head">
        <h1 id="assistant-heading" className="page__title">
          Shopping assistant
        </h1>
        <button type="button" className="link-button" onClick={() => restart.mutate()} disabled={restart.isPending || send.isPending} data-testid="assistant-new">
          {restart.isPending ? "Starting…" : "New conversation"}
        </button>
      </div>
      {restart.isError && (
        <p className="inline-state__text" role="alert">
          {errorMessage(restart.error, "Could not start a new conversation.")}
        </p>
      )}

      <ol className="assistant__log" aria-live="polite" aria-label="Conversation" data-testid="assistant-messages">
        {messages.length === 0 && (
          <li className="assistant__intro" data-testid="assistant-intro">
            <p className="assistant__bubble assistant__bubble--assistant">
              Hi! Tell me what you are looking for, and I'll find it in the catalogue. I can also show similar pieces, suggest what goes with a product, help with sizes and check
              your orders.
            </p>
            <Suggestions items={EXAMPLES} onPick={submit} disabled={send.isPending} />
          </li>
        )}
        {messages.map((m) => (
          <li key={m.id} className={`assistant__msg assistant__msg--${m.role}`} data-testid="assistant-message" data-role={m.role} data-intent={m.intent ?? undefined}>
            <p className={`assistant__bubble assistant__bubble--${m.role}${m.pending ? " assistant__bubble--pending" : ""}`}>{m.content}</p>
            <AssistantCitations citations={m.citations} />
            {m.products.length > 0 && (
              <div className="grid assistant__products" data-testid="assistant-products">
                {m.products.map((p) => (
                  <ProductCardWithQuickAdd key={p.id} product={p} />
                ))}
              </div>
            )}
            {m.links.length > 0 && (
              <p className="assistant__links">
                {m.links.map((l) =>
                  l.href.startsWith("/") ? (
                    <Link key={l.href} to={l.href} className="assistant__link">
                      {l.label}
                    </Link>
                  ) : (
                    <a key={l.href} href={l.href} className="assistant__link" rel="noreferrer">
                      {l.label}
                    </a>
                  ),
                )}
              </p>
            )}
            {m === lastAssistant && m.suggestions.length > 0 && !send.isPending && <Suggestions items={m.suggestions} onPick={submit} disabled={closed} />}
          </li>
        ))}
        {send.isPending && (
          <li className="assistant__msg assistant__msg--assistant" data-testid="assistant-typing">
            <Spinner label="The assistant is typing…" />
          </li>
        )}
      </ol>
      <div ref={endRef} className="assistant__end" />

      {sendError && (
        <div className="inline-state" role="alert" data-testid="assistant-send-error">
          <p className="inline-state__text">{sendError.message}</p>
          <button type="button" className="button button--ghost" onClick={() => submit(sendError.content)} disabled={send.isPending}>
            Try again
          </button>
        </div>
      )}

      {closed ? (
        <p className="assistant__closed">
          This conversation is closed.{" "}
          <button type="button" className="link-button" onClick={() => restart.mutate()}>
            Start a new one
          </button>
        </p>
      ) : (
        <form className="assistant__form" onSubmit={onSubmit}>
          {productId && (
            <p className="assistant__context" data-testid="assistant-product">
              {product.isPending ? "Loading the product…" : product.data ? `About: ${product.data.title}` : "That product is not available."}
              <button
                type="button"
                className="chip__x"
                aria-label="Chat without this product"
                onClick={() => {
                  params.delete("product");
                  setParams(params, { replace: true });
                }}
              >
                ×
              </button>
            </p>
          )}
          <label className="assistant__label" htmlFor="assistant-input">
            Message
          </label>
          <div className="assistant__row">
            <textarea
              id="assistant-input"
              ref={inputRef}
              className="assistant__input"
              data-testid="assistant-input"
              rows={1}
              maxLength={AGENT_MESSAGE_MAX}
              placeholder='Ask for "black jeans under 80"…'
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  submit(text);
                }
              }}
            />
            <button type="submit" className="button" data-testid="assistant-send" disabled={!text.trim() || send.isPending || !conversationId}>
              {send.isPending ? "Sending…" : "Send"}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function Suggestions({ items, onPick, disabled }: { items: string[]; onPick(text: string): void; disabled?: boolean }) {
  return (
    <ul className="chips__list assistant__suggestions" aria-label="Suggestions" data-testid="assistant-suggestions">
      {items.map((s) => (
        <li key={s}>
          <button type="button" className="chip chip--suggestion" onClick={() => onPick(s)} disabled={disabled}>
            {s}
          </button>
        </li>
      ))}
    </ul>
  );
}
