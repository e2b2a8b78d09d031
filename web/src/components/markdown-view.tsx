import Markdown from "react-markdown";

/**
 * Markdown as HTML elements, safely: react-markdown builds React elements from the syntax tree, raw
 * HTML in the text is dropped (no rehype-raw), and link and image addresses other than http(s),
 * mailto and relative ones are removed by its default URL check (docs/decisions/0045).
 */
export default function MarkdownView({ text, label }: { text: string; label: string }) {
  return (
    <section className="markdown-view" aria-label={label}>
      <Markdown skipHtml>{text}</Markdown>
    </section>
  );
}
