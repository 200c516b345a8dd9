// embedlab: replays the "Embedding vs Linear on one-hot" notebook for your own ids and table.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <string>

#include "backward_walkthrough.hpp"
#include "bag_walkthrough.hpp"
#include "embedlab/error.hpp"
#include "forward_walkthrough.hpp"
#include "positions_walkthrough.hpp"
#include "table_source.hpp"
#include "train_walkthrough.hpp"

namespace {

// "argument --padding-idx: ": the option the core's argument is typed in (its name, dashed), as
// argparse names it; nothing for the arguments no option takes.
std::string argument_text(embedlab::Argument argument) {
  if (argument == embedlab::Argument::onehot || argument == embedlab::Argument::compared) return "";
  std::string option(embedlab::argument_name(argument));
  std::replace(option.begin(), option.end(), '_', '-');
  return "argument --" + option + ": ";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace embedlab::cli;
  CLI::App app{
      "Shows that nn.Embedding (a row lookup) and nn.Linear on one-hot vectors (a dense "
      "matrix product) give the same rows, printed like the PyTorch notebook.",
      "embedlab"};
  app.footer(
      "Examples:\n"
      "  embedlab --ids 2,3,1                 the notebook: seed 123, V = max id + 1, d = 5\n"
      "  embedlab --ids \"[3, 2, 0, 1]\"        the same table, other ids\n"
      "  embedlab --ids 2,3,1 --tf-weights    the TensorFlow notebook's fixed weights\n"
      "  embedlab --ids 0,7 -V 10 -d 3 --seed 7\n"
      "  embedlab --ids 1,1,0 --weights w.npy W from np.save('w.npy', "
      "emb.weight.detach().numpy())\n"
      "  embedlab --ids 15496,995 --weights model.safetensors   a model's own table (bf16 too)\n"
      "  embedlab --ids 15496,995 --weights model.safetensors.index.json   a sharded checkpoint's\n"
      "  embedlab --weights model.safetensors --list-tensors    its tensors, the table marked\n"
      "  embedlab backward --ids 2,3,1,3      both routes' gradients for G = torch.randn(n, d)\n"
      "  embedlab bag --ids 2,3,1 --offsets 0,2 --mode sum   nn.EmbeddingBag and its matrix\n"
      "  embedlab train --ids \"1,2; 3,3; 0,1\" --optimizer adam   which rows each step changes,\n"
      "                                       next to nn.Linear on one-hot rows\n"
      "  embedlab train --ids \"1,2; 3,3\" --optimizer sgd --momentum 0.9 --sparse\n"
      "  embedlab train --ids 1,2,3,4,5,1,2,3 -V 6 --max-length 3 --batch-size 2 --shuffle\n"
      "                 --epochs 3 --head tied --positions --optimizer adamw --lr 0.05\n"
      "                                       the chapter's loop: windows, DataLoader, epochs\n"
      "  embedlab positions --ids \"40,367,2885,1464; 1807,3619,402,271\" -V 50257 -d 256\n"
      "                                       token plus position embeddings, (B, T, d)\n"
      "  embedlab head --ids \"40,367; 1807,3619\" --weights model.safetensors   the tied output\n"
      "                                       layer: logits = h @ W.T, and its top tokens\n"
      "Exit status: 0 ok, 2 bad input (the reason is printed on stderr).");
  TableOptions options;
  add_table_options(app, options);
  // The table options belong to the main command; subcommands let them fall through to it.
  auto* backward = app.add_subcommand("backward",
                                      "the gradient of the lookup (a scatter-add) "
                                      "next to onehot.T @ G")
                       ->fallthrough();
  BackwardOptions backward_options;
  add_backward_options(*backward, backward_options);
  auto* bag = app.add_subcommand("bag",
                                 "nn.EmbeddingBag: bags of ids summed, averaged or "
                                 "maxed, and the same as a multi-hot matrix product")
                  ->fallthrough();
  BagWalkOptions bag_options;
  add_bag_options(*bag, bag_options);
  auto* train = app.add_subcommand("train",
                                   "nn.Embedding and nn.Linear on one-hot rows trained "
                                   "side by side with a torch.optim optimizer: which "
                                   "rows each step changes, and why (--ids \"1,2; 3,3\": "
                                   "one batch per semicolon)")
                    ->fallthrough();
  TrainOptions train_options;
  add_train_options(*train, train_options);
  PositionOptions position_options;
  auto* positions = app.add_subcommand("positions",
                                       "token embeddings plus position embeddings "
                                       "for a (B, T) batch (--ids \"1,2; 3,4\": one "
                                       "row per semicolon), both looked up and by "
                                       "one-hot products")
                        ->fallthrough();
  add_position_options(*positions, position_options, false);
  auto* head = app.add_subcommand("head",
                                  "the output layer tied to the embedding: logits = "
                                  "h @ W.T for h = the input embeddings, and the top "
                                  "tokens of each position")
                   ->fallthrough();
  add_position_options(*head, position_options, true);
  app.require_subcommand(0, 1);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    if (options.list_tensors) {
      print_tensor_list(options, std::cout);
      return 0;
    }
    if (*positions) {
      print_positions_walkthrough(options, position_options, std::cout);
      return 0;
    }
    if (*head) {
      print_head_walkthrough(options, position_options, std::cout);
      return 0;
    }
    if (*train) {
      print_train_walkthrough(options, train_options, std::cout);
      return 0;
    }
    const Input input = make_input(options);
    if (*backward) {
      print_backward_walkthrough(input, backward_options, std::cout);
    } else if (*bag) {
      print_bag_walkthrough(input, bag_options, std::cout);
    } else {
      print_forward_walkthrough(input, std::cout);
    }
  } catch (const embedlab::InputError& e) {
    std::cerr << "error: " << argument_text(e.argument()) << e.what() << "\n";
    return 2;
  }
  return 0;
}
