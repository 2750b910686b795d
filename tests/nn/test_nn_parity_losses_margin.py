"""The margin, embedding and likelihood loss layers against real torch: reprs (TripletMarginWithDistanceLoss's
default distance is a PairwiseDistance submodule), options, buffers and the legacy size_average/reduce flags.
Their values, gradients and errors are op-table rows (tests/core/op_table_losses_margin.py)."""
import warnings


def test_loss_layers_match_torch(parity):
    def example(lib):
        nn = lib.nn
        layers = [nn.MarginRankingLoss(0.5), nn.HingeEmbeddingLoss(), nn.CosineEmbeddingLoss(),
                  nn.TripletMarginLoss(swap=True), nn.TripletMarginWithDistanceLoss(),
                  nn.MultiLabelSoftMarginLoss(weight=lib.ones(3)), nn.PoissonNLLLoss(), nn.GaussianNLLLoss(),
                  nn.SoftMarginLoss()]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            legacy = nn.MarginRankingLoss(size_average=False).reduction
        return ([(repr(m), m.reduction, list(m.state_dict()), sorted(k for k in vars(m) if not k.startswith("_")))
                 for m in layers], legacy, [str(w.message) for w in caught])
    parity(example)
