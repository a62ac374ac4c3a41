import { schema, tool } from "cave";
import { SUPPORT_HOURS, articles } from "../data/knowledge-base.js";
import { Timestamp, Url } from "./shared-schemas.js";

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1);
}

export const searchKnowledgeBase = tool({
  name: "search_knowledge_base",
  description:
    "Search the help-centre articles (refunds, returns, shipping, cancellations, invoices, warranty) and return the best matches with a link and an excerpt. Prefer quoting an article over answering from memory.",
  input: schema.object({
    query: schema.string({ minLength: 2, maxLength: 200 }),
    limit: schema.optional(schema.integer({ minimum: 1, maximum: 10, default: 3 })),
  }),
  output: schema.object({
    query: schema.string(),
    results: schema.array(
      schema.object({
        articleId: schema.string({ pattern: "^KB-[0-9]{3}$" }),
        title: schema.string(),
        url: Url,
        updatedAt: Timestamp,
        score: schema.number({ minimum: 0 }),
        excerpt: schema.string(),
      }),
      { maxItems: 10 },
    ),
  }),
  effect: "read",
  // Article text is prose the model only skims: a locked compression transform keeps the context small.
  result: "compress",
  timeout: 5_000,
  execute({ query, limit = 3 }) {
    const terms = new Set(words(query));
    const results = articles
      .map((article) => {
        const titleHits = words(article.title).filter((word) => terms.has(word)).length;
        const tagHits = article.tags.filter((tag) => terms.has(tag)).length;
        const bodyHits = words(article.body).filter((word) => terms.has(word)).length;
        return { article, score: titleHits * 3 + tagHits * 2 + bodyHits };
      })
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score || a.article.articleId.localeCompare(b.article.articleId))
      .slice(0, limit)
      .map(({ article, score }) => ({
        articleId: article.articleId,
        title: article.title,
        url: article.url,
        updatedAt: article.updatedAt,
        score,
        excerpt: article.body.length > 240 ? `${article.body.slice(0, 237)}...` : article.body,
      }));
    return { query, results };
  },
});

/**
 * Schema-less: no input, and its result keeps native JSON serialisation. It reads only constants shipped
 * with the example, so it is trusted to run in-process (`sandbox: "none"`).
 */
export const getSupportHours = tool({
  name: "get_support_hours",
  description:
    "When human support is available: opening hours per day in the desk's time zone, and the holidays when it is closed.",
  effect: "read",
  sandbox: "none",
  execute() {
    return SUPPORT_HOURS;
  },
});
