import { getTranslations } from "next-intl/server";
import { requireRole } from "@/platform/auth/session";
import { MARKUP_EXAMPLES } from "@/platform/richtext/gallery";
import { RichText } from "@/platform/ui/rich-text";
import { TableHead } from "@/platform/ui/table-head";

/** Teachers learn the markup here: each example's source and its rendering in the current language. */
export async function MarkupGalleryPage() {
  await requireRole("teacher");
  const t = await getTranslations("Markup");
  return (
    <div className="stack">
      <h1>
        <RichText text={t("title")} />
      </h1>
      <p>
        <RichText text={t("lead")} />
      </p>
      <div className="table-wrap">
        <table className="table" data-testid="markup-gallery">
          <TableHead labels={[t("what"), t("source"), t("result")]} />
          <tbody>
            {MARKUP_EXAMPLES.map((example) => (
              <tr key={example.labelKey} data-example={example.labelKey}>
                <th scope="row">
                  <RichText text={t(`examples.${example.labelKey}`)} />
                </th>
                <td>
                  <code className="markup-source">{example.source}</code>
                </td>
                <td className="markup-result" data-testid={`result-${example.labelKey}`}>
                  <RichText text={example.source} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
