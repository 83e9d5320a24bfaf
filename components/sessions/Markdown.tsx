"use client";

import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";

/**
 * What the model wrote is untrusted: react-markdown renders no raw HTML and drops `javascript:` links by default;
 * images are not loaded (a prompt-injected agent could put data into an image URL and the dashboard would send it),
 * only named with their address; links open in a new tab without a referrer.
 */
const COMPONENTS: Components = {
  img: ({ src, alt }) => (
    <span className="md-image" title="images in transcripts are not loaded">
      [image{alt ? `: ${alt}` : ""}] <code>{typeof src === "string" ? src : ""}</code>
    </span>
  ),
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
};

/** The model's markdown (GitHub's flavour: tables, task lists, strikethrough), code blocks highlighted by highlight.js. */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false }]]} components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
