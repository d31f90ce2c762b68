import { useRef, type ReactNode } from 'react';
import { useToast } from '@act/ui-kit';
import { isAllowedImageUrl } from './urls';

/**
 * Images chosen by file are embedded inline as data URLs (spec §5). The whole template travels in one
 * JSON body, which the services cap at 1 MB, so one embedded file may be at most this big (its data URL
 * is a third larger); bigger images belong on a host and go in by URL.
 */
export const MAX_IMAGE_FILE_BYTES = 500 * 1024;

export interface EmbeddedImage {
  src: string;
  alt: string;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('File could not be read'));
    reader.readAsDataURL(file);
  });
}

/** The files that are images and small enough, as data URLs; the names of the refused ones. */
export async function embedImageFiles(files: File[]): Promise<{ images: EmbeddedImage[]; refused: string[] }> {
  const images: EmbeddedImage[] = [];
  const refused: string[] = [];
  for (const file of files) {
    if (!file.type.startsWith('image/') || file.size > MAX_IMAGE_FILE_BYTES) {
      refused.push(file.name);
      continue;
    }
    const src = await readAsDataUrl(file);
    if (isAllowedImageUrl(src)) images.push({ src, alt: file.name.replace(/\.[^.]+$/, '') });
    else refused.push(file.name);
  }
  return { images, refused };
}

/** Reads chosen files and tells the user about the ones that cannot be embedded. */
export function useEmbedImages() {
  const { toast } = useToast();
  return async (files: File[]): Promise<EmbeddedImage[]> => {
    const { images, refused } = await embedImageFiles(files);
    if (refused.length > 0) {
      toast({
        title: 'Image not added',
        description: `${refused.join(', ')}: choose an image file under ${Math.round(MAX_IMAGE_FILE_BYTES / 1024)} KB, or insert a larger one by URL.`,
        variant: 'destructive',
      });
    }
    return images;
  };
}

/** A hidden file input and the function that opens it. */
export function useImageFiles(onImages: (images: EmbeddedImage[]) => void): {
  pickImages: () => void;
  fileInput: ReactNode;
} {
  const input = useRef<HTMLInputElement>(null);
  const embed = useEmbedImages();
  return {
    pickImages: () => input.current?.click(),
    fileInput: (
      <input
        ref={input}
        type="file"
        accept="image/*"
        hidden
        aria-hidden
        tabIndex={-1}
        onChange={async (e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) onImages(await embed(files));
        }}
      />
    ),
  };
}
