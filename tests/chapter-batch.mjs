// The chapter's first batch of 8 × 4 token ids: the opening of Edith Wharton's "The Verdict" in
// GPT-2's tokens ("I HAD always thought Jack Gisburn …"), four at a time, as the book's data
// loader gives it. The ground truth the positions and head tests feed PyTorch and the page alike.
export const CHAPTER_BATCH = Object.freeze([
  [40, 367, 2885, 1464],
  [1807, 3619, 402, 271],
  [10899, 2138, 257, 7026],
  [15632, 438, 2016, 257],
  [922, 5891, 1576, 438],
  [568, 340, 373, 645],
  [1049, 5975, 284, 502],
  [284, 3285, 326, 11],
]);
