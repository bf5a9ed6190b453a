import { useLayoutEffect, useRef, useState } from 'react';

/**
 * The chat pane while + New chat waits on the host to start the chat: its message box at once,
 * with the focus, so that what the person types meanwhile is kept (`onChange`); the new chat's
 * own box takes it over, and the focus, once the chat exists. Nothing is sent from here: Send
 * waits for the chat, and Enter does nothing yet.
 */
export function StartingPane({ initialText, onChange }: { initialText: string; onChange: (text: string) => void }) {
  const input = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(initialText);
  // A layout effect: the focus leaves New chat before the browser handles the next key.
  useLayoutEffect(() => {
    const box = input.current;
    if (!box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, []);
  return (
    <section className="chat-pane" aria-label="New chat, starting" aria-busy="true" data-status="starting">
      <header className="chat-header">
        <p className="muted small-text">Starting a new chat…</p>
      </header>
      <div className="chat-starting-space" />
      <div className="chat-composer">
        <form aria-label="Message" onSubmit={(event) => event.preventDefault()}>
          <div className="chat-input-row">
            <textarea
              ref={input}
              aria-label="Your message"
              rows={Math.min(8, Math.max(1, text.split('\n').length))}
              placeholder="Message the model…"
              title="Enter sends once the chat has started; Shift+Enter starts a new line"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                onChange(event.target.value);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey) event.preventDefault();
              }}
            />
            <button type="submit" className="primary chat-send" aria-disabled="true" aria-busy="true">
              Send
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
