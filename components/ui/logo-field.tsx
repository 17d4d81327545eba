"use client";
/**
 * An image picked from disk and kept as a data URL (how the API takes logos), with a preview,
 * Remove, and the file checked for type and size before it is read. The API checks the image
 * itself; its message arrives through `error`.
 */
import { ImageUp } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "./button";

const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
const LOGO_MAX_BYTES = 512 * 1024;

function readFileAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error("The file could not be read"));
    reader.readAsDataURL(file);
  });
}

export function LogoField({
  label = "Logo",
  value,
  onChange,
  error,
  disabled,
  help = "PNG, JPEG, WebP or GIF, at most 512 KB; shown on the hosted pages.",
}: {
  label?: string;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
  disabled?: boolean;
  help?: string;
}) {
  const id = useId();
  const [fileError, setFileError] = useState<string | undefined>();
  const shownError = fileError ?? error;
  return (
    <div className="space-y-2">
      <span className="block text-sm font-medium" id={`${id}-label`}>
        {label}
      </span>
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex h-16 w-16 items-center justify-center rounded border border-gray-300 bg-gray-50">
          {value ? (
            // eslint-disable-next-line @next/next/no-img-element -- a data URL preview
            <img src={value} alt={`${label} preview`} className="h-full w-full rounded object-contain" />
          ) : (
            <ImageUp aria-hidden className="h-6 w-6 text-gray-400" />
          )}
        </div>
        {!disabled ? (
          <>
            <label className="inline-flex cursor-pointer items-center rounded-md border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-gray-100 focus-within:outline-2 focus-within:outline-blue-700">
              Upload {label.toLowerCase()}
              <input
                type="file"
                accept={LOGO_TYPES.join(",")}
                className="sr-only"
                aria-describedby={`${id}-help${shownError ? ` ${id}-error` : ""}`}
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  e.target.value = "";
                  if (!file) return;
                  if (!LOGO_TYPES.includes(file.type))
                    return setFileError("Use a PNG, JPEG, WebP or GIF image.");
                  if (file.size > LOGO_MAX_BYTES) return setFileError("The image must be at most 512 KB.");
                  setFileError(undefined);
                  onChange(await readFileAsDataUrl(file));
                }}
              />
            </label>
            {value ? (
              <Button variant="ghost" size="sm" onClick={() => onChange(null)}>
                Remove {label.toLowerCase()}
              </Button>
            ) : null}
          </>
        ) : null}
      </div>
      <p id={`${id}-help`} className="text-sm text-gray-600">
        {help}
      </p>
      {shownError ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {shownError}
        </p>
      ) : null}
    </div>
  );
}
