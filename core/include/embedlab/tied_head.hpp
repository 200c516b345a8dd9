#pragma once
// The output layer tied to the embedding, as GPT-2 (and Llama 3.2 1B/3B, Qwen 3 0.6B, Gemma 3)
// ties it, in PyTorch 1.13:
//
//   out_head = nn.Linear(d, V, bias=False)
//   out_head.weight = tok_emb.weight            # the same Parameter, not a copy
//   logits = out_head(h)                        # h @ W.T: (n, d) x (d, V) -> (n, V)
//
// The same W is read twice: n rows by the lookup at the input, all V rows by the product at the
// output, where none is wasted (every logit is wanted). The product here streams W a block of rows
// at a time (streamed.hpp's block sizes, whole blocks of the GEMM's rows, so that the result does
// not depend on the block size), so memory holds one block of W, the top-k of each row of h and the
// logits a printout shows, never the (n, V) logits unless asked to. Each logit sums its d
// products in the core's GEMM's order (gemm.hpp); PyTorch's BLAS sums in its own, so against
// out_head(h) the logits are graded (RoutePair::head), not bit-identical.
//
// A checkpoint ties when it stores no output layer of its own (no lm_head.weight or
// output.weight), or when its config.json says tie_word_embeddings: head_tying() decides.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

struct TopLogit {
  Index id = 0;
  float logit = 0.0f;
};

// The top tokens a printout lists unless asked: 5, or V where V is fewer.
Index default_top_k(Index vocab);

// k top tokens of V: at least `lowest` and at most V, else an error of the ids (top-k).
void check_top_k(Index k, Index vocab, Index lowest);

struct HeadOptions {
  Index top_k = 5;       // per row of h, at most V; 0 for none (default_top_k(V) unless asked)
  bool whole = false;    // keep the (n, V) logits, checked against limits.max_elements
  Ids keep_columns;      // columns kept besides (ascending, distinct, below V)
  Index block_rows = 0;  // see stream_block_rows()
};

class StreamedHead {
 public:
  // h (n, d) against W (V, d): checks d, n and the kept logits against the limits.
  StreamedHead(Table weight, Matrix hidden, const HeadOptions& options = {},
               const Limits& limits = default_limits);
  const StreamProgress& step();  // the next block of W's rows, if any
  const StreamProgress& run();   // every block left
  const StreamProgress& progress() const { return progress_; }
  bool done() const { return progress_.done(); }
  // The k largest logits of each row of h, largest first (a NaN counts as the largest, as
  // torch.topk ranks it; equal logits by ascending id). Complete once done().
  const std::vector<std::vector<TopLogit>>& top() const { return top_; }
  const Matrix& logits() const { return whole_; }          // (n, V) with options.whole
  const Matrix& kept_columns() const { return columns_; }  // (n, keep_columns.size())

 private:
  Table weight_;
  Matrix hidden_t_;  // h.T (d, n)
  HeadOptions options_;
  Index block_rows_;
  std::vector<float> rows_;  // a block of W as float32
  Matrix whole_;
  Matrix columns_;
  std::vector<std::vector<TopLogit>> top_;
  StreamProgress progress_;
};

// Whether a checkpoint's output layer is its embedding table, and why, in one sentence.
struct HeadTying {
  bool tied = true;
  std::string reason;
};
// A model's config.json is a few KB; a text over this is refused before it is parsed, and front
// ends read at most one byte more than this of a file named config.json.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;
// From the file's tensor names and, when not empty, the text of the config.json beside it (its
// tie_word_embeddings, when it has one, decides: Hugging Face ties by it and ignores a stored
// lm_head.weight). An InputError (of weights) when config_text is not a JSON object or its
// tie_word_embeddings is not a boolean, or when it is over kMaxConfigBytes.
HeadTying head_tying(const SafetensorsHeader& header, std::string_view config_text = {});

}  // namespace embedlab
