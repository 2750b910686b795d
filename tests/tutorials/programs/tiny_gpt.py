# A tiny GPT, in the spirit of Andrej Karpathy's "Let's build GPT: from scratch, in code, spelled out" and its
# nanoGPT (token and position embeddings, blocks of causal multi-head self-attention and an MLP with pre-LayerNorm
# and residual connections, a final LayerNorm and linear head, cross-entropy, AdamW, then sampling with
# torch.multinomial):
#   https://github.com/karpathy/ng-video-lecture (gpt.py)   and   https://github.com/karpathy/nanoGPT (model.py)
# Written for this suite after those two files, not copied: the attention is nanoGPT's CausalSelfAttention
# (one c_attn projection split into q, k, v, then F.scaled_dot_product_attention with is_causal=True and dropout
# in training), the training loop and `generate` are gpt.py's. Changes from them:
# - the data is a fixed synthetic text of letters (no input.txt download), a character-level vocabulary;
# - the model is small (n_embd 32, 2 heads, 2 layers, block_size 16) and trains 30 steps on the CPU;
# - the loss is estimated on fixed batches, and 40 characters are sampled from a seeded generator.
# harness: rtol=1e-3 (float32 round-off of AdamW steps through attention and LayerNorm)
import math

import torch
import torch.nn as nn
from torch.nn import functional as F

torch.manual_seed(1337)
batch_size = 8
block_size = 16
max_iters = 30
eval_interval = 10
learning_rate = 3e-3
n_embd = 32
n_head = 2
n_layer = 2
dropout = 0.1

text = "the quick brown fox jumps over the lazy dog. " * 12 + "pack my box with five dozen liquor jugs. " * 12
chars = sorted(list(set(text)))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda l: ''.join([itos[i] for i in l])

data = torch.tensor(encode(text), dtype=torch.long)
n = int(0.9 * len(data))
train_data = data[:n]
val_data = data[n:]


def get_batch(split):
    data = train_data if split == 'train' else val_data
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y


class CausalSelfAttention(nn.Module):

    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(n_embd, dim=2)
        k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
        q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
        v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=dropout if self.training else 0,
                                           is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):

    def __init__(self):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * n_embd, n_embd)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):

    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention()
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP()

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPTLanguageModel(nn.Module):

    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block() for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        tok_emb = self.token_embedding_table(idx)
        pos_emb = self.position_embedding_table(torch.arange(T))
        x = tok_emb + pos_emb
        x = self.blocks(x)
        x = self.ln_f(x)
        logits = self.lm_head(x)
        if targets is None:
            loss = None
        else:
            B, T, C = logits.shape
            logits = logits.view(B * T, C)
            targets = targets.view(B * T)
            loss = F.cross_entropy(logits, targets)
        return logits, loss

    def generate(self, idx, max_new_tokens, generator=None):
        for _ in range(max_new_tokens):
            idx_cond = idx[:, -block_size:]
            logits, loss = self(idx_cond)
            logits = logits[:, -1, :]
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1, generator=generator)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


model = GPTLanguageModel()
print(sum(p.numel() for p in model.parameters()), 'parameters')
print(model.blocks[0])

eval_batches = {split: [get_batch(split) for _ in range(3)] for split in ('train', 'val')}


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split, batches in eval_batches.items():
        out[split] = sum(model(X, Y)[1].item() for X, Y in batches) / len(batches)
    model.train()
    return out


optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
for iter in range(max_iters + 1):
    if iter % eval_interval == 0:
        losses = estimate_loss()
        print(f"step {iter}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
    xb, yb = get_batch('train')
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()

model.eval()
context = torch.zeros((1, 1), dtype=torch.long)
g = torch.Generator().manual_seed(42)
sample = model.generate(context, max_new_tokens=40, generator=g)[0].tolist()
print(decode(sample))
print(round(math.exp(estimate_loss()['val']), 3), 'validation perplexity')
